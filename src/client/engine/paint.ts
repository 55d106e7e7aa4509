/** Resolves in a task of its own, after the tasks already queued. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve));

/** Resolves once the browser has painted what was just committed: the next frame's paint, then a task. */
export const afterNextPaint = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
