/** engine/forms/formAhead.ts: a form shown later is asked for once the screen's content has painted (issue 47). */
import { expect } from 'chai';
import { call } from 'redux-saga/effects';
import { fetchFormAhead, fetchFormAheadAfterPaint, formScreenShown } from '../../../../src/client/engine/forms/formAhead.js';
import { afterNextPaint } from '../../../../src/client/engine/paint.js';

describe('client/engine/forms/formAhead', () => {
  it("asks for the form's chunks only after the content's paint, a frame later (its presentation)", () => {
    const saga = fetchFormAheadAfterPaint(formScreenShown({ schema: 'organizationUser' }));
    expect(saga.next().value).to.deep.equal(call(afterNextPaint));
    expect(saga.next().value).to.deep.equal(call(afterNextPaint));
    expect(saga.next().value).to.deep.equal(call(fetchFormAhead, 'organizationUser'));
    expect(saga.next().done).to.equal(true);
  });
});
