/**
 * On a cold load the form engine (RJSF, its widgets, a form's validators) is asked for after the frame's first paint
 * (issue 47): the header, the provider's notices and the page's heading are painted from the first load alone. On a
 * fresh page every chunk the route asked for had arrived before the frame painted, so the frame waited for the form
 * engine it does not need, and Lighthouse counted RJSF in the wizard's largest paint (the notice): 82–87 against
 * 88–94. The block engine and the screen's definition still come at once: the engine's link stays busy meanwhile.
 * Held only where main.tsx holds it (the first load); anywhere else (a test, the gallery) the engine loads at once.
 */
import { urgentTask } from '../paint.js';

let released: Promise<void> = Promise.resolve();
let release: () => void = () => undefined;

/** main.tsx, before anything asks for the form engine: it waits for releaseFormEngine. */
export function holdFormEngine(): void {
  released = new Promise((resolve) => (release = resolve));
}

/** The frame has been painted (app/firstPaint.ts): the form engine may come. */
export function releaseFormEngine(): void {
  release();
}

/**
 * `load()` once the form engine may come, in a task of its own ahead of the page's ordinary ones (paint.ts
 * `urgentTask`): each of its chunks' `import()` goes through here. Released together, the engine's scripts, the form's
 * validators and the date field's worker were one task of 27 ms at 1× under Lighthouse's trace (each script element
 * 5–8 ms there), after the frame's first paint: TBT's.
 */
export const afterFrame = <T>(load: () => Promise<T>): Promise<T> => released.then(urgentTask).then(load);
