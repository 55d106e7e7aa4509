/**
 * For a test without a DOM of its own (a saga's): each animation frame runs on a timer's turn, so what waits for the
 * next paint (src/client/engine/paint.ts) goes on; the global is put back after each test.
 */
export function framesAsTimers(): void {
  const own = globalThis.requestAnimationFrame;
  beforeEach(() => (globalThis.requestAnimationFrame = (frame) => setTimeout(() => frame(0), 0) as unknown as number));
  afterEach(() => (globalThis.requestAnimationFrame = own));
}
