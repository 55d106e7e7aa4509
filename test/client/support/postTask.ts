/**
 * The browser's `scheduler.postTask` (engine/paint.ts `urgentTask`) for a test: each posted task waits until the test
 * runs it. `restore()` takes the scheduler away again (Node has none).
 */
export interface PostedTask {
  priority: string;
  run: () => void;
}

export function installPostTask(): { posted: PostedTask[]; restore: () => void } {
  const posted: PostedTask[] = [];
  const postTask = (callback: () => void, options: { priority: string }) => new Promise<void>((resolve) => posted.push({ priority: options.priority, run: () => resolve(callback()) }));
  (globalThis as { scheduler?: unknown }).scheduler = { postTask };
  return { posted, restore: () => delete (globalThis as { scheduler?: unknown }).scheduler };
}
