/**
 * A Suspense boundary whose content shows as soon as what it waits for has arrived (issue 47). React shows a suspended
 * boundary's content by a retry and holds a retry until 300 ms after the last fallback it showed (react-dom's
 * fallback throttle): on a cold page the route's chunks arrived within that time, and the content then waited out
 * the rest with the main thread idle (~300 ms of every page's first paint). Each promise a boundary may wait for is
 * passed through `revealing`; when one settles, the boundaries showing their fallback render again in a transition,
 * which React commits at once (a transition is not a retry) and still in slices. A boundary showing its content is
 * left alone: a render it did not need would interrupt the page's own.
 */
import { startTransition, Suspense, useEffect, useState, type ReactElement, type ReactNode } from 'react';

const waiting = new Set<() => void>();

/** `promise`, whose arrival shows the boundaries waiting for it without React's throttle. */
export function revealing<T>(promise: Promise<T>): Promise<T> {
  const reveal = () => waiting.forEach((render) => render());
  promise.then(reveal, reveal);
  return promise;
}

export function Reveal({ fallback, children }: { fallback: ReactNode; children: ReactNode }): ReactElement {
  const [arrivals, setArrivals] = useState(0);
  return (
    <Suspense fallback={<Waiting onArrival={() => startTransition(() => setArrivals((count) => count + 1))}>{fallback}</Waiting>}>
      <Arrived count={arrivals}>{children}</Arrived>
    </Suspense>
  );
}

/** The fallback, while it is shown: its boundary renders again on an arrival. */
function Waiting({ onArrival, children }: { onArrival: () => void; children: ReactNode }): ReactNode {
  useEffect(() => {
    waiting.add(onArrival);
    return () => void waiting.delete(onArrival);
  }, [onArrival]);
  return children;
}

/** The boundary's content, rendered again (not bailed out) on each arrival. */
function Arrived({ children }: { count: number; children: ReactNode }): ReactNode {
  return children;
}
