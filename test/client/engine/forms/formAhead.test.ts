/** engine/forms/formAhead.ts: a form shown later is asked for once the screen's content has painted (issue 47). */
import { expect } from 'chai';
import { call } from 'redux-saga/effects';
import { afterNextPaint, fetchFormAhead, fetchFormAheadAfterPaint, formScreenShown } from '../../../../src/client/engine/forms/formAhead.js';

describe('client/engine/forms/formAhead', () => {
  it("asks for the form's chunks only after the content's paint", () => {
    const saga = fetchFormAheadAfterPaint(formScreenShown({ schema: 'organizationUser' }));
    expect(saga.next().value).to.deep.equal(call(afterNextPaint));
    expect(saga.next().value).to.deep.equal(call(fetchFormAhead, 'organizationUser'));
    expect(saga.next().done).to.equal(true);
  });

  it('afterNextPaint resolves in a task after the next animation frame, not before it', async () => {
    const frames: FrameRequestCallback[] = [];
    const own = globalThis.requestAnimationFrame;
    globalThis.requestAnimationFrame = (frame) => frames.push(frame);
    try {
      let painted = false;
      const after = afterNextPaint().then(() => (painted = true));
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(painted, 'before the frame').to.equal(false);
      frames.forEach((frame) => frame(0));
      await after;
      expect(painted).to.equal(true);
    } finally {
      globalThis.requestAnimationFrame = own;
    }
  });
});
