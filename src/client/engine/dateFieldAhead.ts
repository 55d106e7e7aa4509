/**
 * A page's first `<input type="date">` costs Chromium 27–63 ms at 1× CPU as its type is set (the date format's
 * locale data, made once a page), whether or not the field is ever shown: inside the render that showed the wizard's
 * form, that was the form's longest part (issue 47). A screen that shows a date field at once (RoutePreload.dateField)
 * makes one, and drops it, after the frame's paint, while its chunks and data are on their way; its own fields then
 * cost ~2 ms. In a task of its own: a long task of its own rather than a longer one.
 */
import { nextTask } from './paint.js';

let made = false;

export async function makeDateFieldAhead(): Promise<void> {
  if (made) return;
  made = true;
  await nextTask();
  document.createElement('input').type = 'date';
}
