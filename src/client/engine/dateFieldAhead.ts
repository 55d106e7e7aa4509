/**
 * A page's first `<input type="date">` cost Chromium 17–63 ms at 1× CPU as its type was set, whether or not the field
 * is ever shown: inside the render that showed the wizard's form, the form's longest part (issue 47). The cost is ICU's
 * first use in the page's process (any Intl format costs the same, and a date field after it ~3 ms). A screen that
 * shows a date field at once (RoutePreload.dateField) has a worker format a date after the frame's paint, on its own
 * thread, while the screen's chunks and data are on their way; then it makes one field, and drops it, in a task of
 * its own. Without workers (tests) the field alone.
 */
import { nextTask } from './paint.js';

let made = false;

export async function makeDateFieldAhead(): Promise<void> {
  if (made) return;
  made = true;
  await warmIcuOnAWorker();
  await nextTask();
  document.createElement('input').type = 'date';
}

function warmIcuOnAWorker(): Promise<void> {
  if (typeof Worker === 'undefined') return Promise.resolve();
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./icuWarmUp.worker.js', import.meta.url), { name: 'icu-warm-up' });
    const done = () => {
      worker.terminate();
      resolve();
    };
    worker.onmessage = done;
    worker.onerror = done;
  });
}
