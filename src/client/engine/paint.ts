/** Resolves in a task of its own, after the tasks already queued. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve));

/** Resolves once the browser has painted what was just committed: the next frame's paint, then a task. */
export const afterNextPaint = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The Prioritized Task Scheduling API where the browser has it (Chromium; not yet in TypeScript's DOM types). */
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking' }): Promise<void>;
}

/**
 * Resolves in a task of its own that the browser runs before its ordinary tasks (React's render slices) where it can
 * order them (`scheduler.postTask`, 'user-blocking'); elsewhere at once, in this task, as a promise's next step.
 */
export function urgentTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
  return typeof scheduler?.postTask === 'function' ? scheduler.postTask(() => undefined, { priority: 'user-blocking' }) : Promise.resolve();
}
