/** engine/paint.ts: what waits for the browser's paint. */
import { expect } from 'chai';
import { afterNextPaint } from '../../../src/client/engine/paint.js';

describe('client/engine/paint', () => {
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
