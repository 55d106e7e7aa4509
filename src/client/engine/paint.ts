/** Resolves once the browser has painted what was just committed: the next frame's paint, then a task. */
export const afterNextPaint = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
