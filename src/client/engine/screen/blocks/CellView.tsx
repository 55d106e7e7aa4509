/** The cells of tables and item lists: text (a value or a locale key with values), a mark, a link, a select or a button. */
import { createContext, use, type ReactElement } from 'react';
import type { TFunction } from 'i18next';
import { useSelector } from 'react-redux';
import type { Cell, ScreenDefinition } from '../../../../common/screens.js';
import { isPending } from '../../../state/operations.js';
import { matches } from '../conditions.js';
import { actionOperation } from '../dialogState.js';
import { formatted } from '../formats.js';
import { hrefOf, linkClassName } from '../LinkView.js';
import { screenPath } from '../navigation.js';
import { resolveValue, resolveValues, type ScreenContext } from '../values.js';
import { useRunAction } from './shared.js';

/**
 * The words of the cells, given once by their table or list (its `t` from react-i18next): that hook copies the i18next
 * instance's properties on each component's first render, and a table of a hundred rows has several hundred cells
 * (issue 47: a fifth of /users' first render).
 */
export const CellWords = createContext<TFunction | null>(null);

function useCellWords(): TFunction {
  const t = use(CellWords);
  if (!t) throw new Error('a cell is shown outside a table or list that gives its words (CellWords)');
  return t;
}

interface CellProps {
  cell: Cell;
  screen: ScreenDefinition;
  context: ScreenContext;
  /** A text as a bare text node (the only cell of a table's column), not in an element of its own. */
  bare?: boolean;
}

/** A cell, or with `each` the cell once per element of its array (the element as `$element`). */
export function CellView({ cell, screen, context, bare }: CellProps): ReactElement | null {
  if (cell.each === undefined) return <OneCell cell={cell} screen={screen} context={context} bare={bare} />;
  const elements = resolveValue(cell.each, context);
  if (!Array.isArray(elements)) return null;
  return (
    <>
      {elements.map((element, index) => (
        <OneCell key={index} cell={cell} screen={screen} context={{ ...context, element }} />
      ))}
    </>
  );
}

/**
 * A cell of a row. Its hooks are few: a table of a hundred rows renders several hundred cells on its first paint
 * (issue 47: /users' longest task), so only the cells that run an action ask for its state.
 */
function OneCell({ cell, screen, context, bare }: CellProps): ReactElement | null {
  const t = useCellWords();
  if (!matches(cell.when, context)) return null;
  const values = formatted(resolveValues(cell.values, context), cell.formats, context.language);
  const text = cell.text ? t(cell.text, values) : String(resolveValue(cell.value, context) ?? '');
  switch (cell.type) {
    case 'mark':
      return <span className="mark">{text}</span>;
    case 'link':
      return (
        <a href={cell.screen ? screenPath(cell.screen, context) : hrefOf(cell.href ?? '', context, t)} {...(cell.external ? { target: '_blank', rel: 'noreferrer' } : {})}>
          {t(cell.label ?? '', values)}
        </a>
      );
    case 'select':
    case 'button':
      return <ActionCell cell={cell} screen={screen} context={context} label={cell.label ? t(cell.label, values) : undefined} text={text} />;
    default:
      return bare ? <>{text}</> : <span>{text}</span>;
  }
}

/** A select or a button that runs the screen's action: disabled while that action is in progress. */
function ActionCell({ cell, screen, context, label, text }: { cell: Cell; screen: ScreenDefinition; context: ScreenContext; label?: string; text: string }): ReactElement {
  const t = useCellWords();
  const run = useRunAction(screen);
  const pending = useSelector(isPending(actionOperation(screen.id, cell.action!)));
  if (cell.type === 'select') {
    const current = String(resolveValue(cell.value, context) ?? '');
    return (
      <select
        aria-label={label ?? ''}
        value={current}
        disabled={pending}
        onChange={(event) => {
          // choosing the value the row already has does nothing (SPEC 2.13)
          if (event.target.value !== current) run(cell.action!, { ...context, value: event.target.value });
        }}
      >
        {(cell.options ?? []).map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
      </select>
    );
  }
  return (
    <button
      type="button"
      className={cell.style === 'link' ? linkClassName('link') : `button button--small${cell.style === 'danger' ? ' button--danger' : ''}`}
      aria-label={label}
      disabled={pending}
      onClick={() => run(cell.action!, context)}
    >
      {text}
    </button>
  );
}
