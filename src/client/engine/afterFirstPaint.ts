import { startTransition, useEffect, useState } from 'react';
import { afterNextPaint } from './paint.js';

/**
 * False in a component's first render; true, in a transition, once the browser has painted that render: what the
 * component draws only after its first paint (React renders a transition in slices between which the page responds).
 * A module of its own, outside the first load: only chunks' components use it.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let active = true;
    void afterNextPaint().then(() => active && startTransition(() => setPainted(true)));
    return () => {
      active = false;
    };
  }, []);
  return painted;
}
