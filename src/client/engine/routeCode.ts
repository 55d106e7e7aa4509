/**
 * The route's code (block engine, form engine, a screen's definition and validators, their words) on a cold load
 * comes after the frame's first paint (issue 47): the header, the provider's notices and the page's heading are
 * painted from the first load alone, then the route's chunks are asked for. On a fresh page every chunk the route
 * asked for had arrived before the frame painted, so the frame waited for the form engine (RJSF) it does not need,
 * and Lighthouse counted those chunks in the page's largest paint (the notice: the wizard 82 against 91).
 * Held only where main.tsx holds it (the first load); anywhere else (a test, the gallery) the code loads at once.
 */
let opened: Promise<void> = Promise.resolve();
let open: () => void = () => undefined;

/** main.tsx, before anything asks for a route's code: it waits for openRouteCode. */
export function holdRouteCode(): void {
  opened = new Promise((resolve) => (open = resolve));
}

/** The frame has been painted: the route's code may come. */
export function openRouteCode(): void {
  open();
}

/** `load()` once the route's code may come: every route chunk's `import()` goes through here. */
export const afterFrame = <T>(load: () => Promise<T>): Promise<T> => opened.then(load);
