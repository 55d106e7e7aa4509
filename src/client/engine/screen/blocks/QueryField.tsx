/** The select and date blocks: fields bound to a query parameter of the URL. */
import type { ReactElement, ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ScreenContext } from '../values.js';

/** A query parameter as a field's value: a new value replaces it in the URL (the screen is entered again). */
export function useQueryParameter(name: string, context: ScreenContext): [string, (value: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const set = (value: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(name, value);
    setSearchParams(next, { replace: true });
  };
  return [context.query[name] ?? '', set];
}

/** A labelled field of the query's filters. */
export function QueryField({ id, label, children }: { id: string; label: string; children: ReactNode }): ReactElement {
  return (
    <div className="select-field">
      <label className="select-field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
