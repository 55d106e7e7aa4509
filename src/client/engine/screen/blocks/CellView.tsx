/** The cells of tables and item lists: text (a value or a locale key with values), a mark, a link, a select or a button. */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { Cell, ScreenDefinition } from '../../../../common/screens.js';
import { isPending, type OperationsRootState } from '../../../state/operations.js';
import { matches } from '../conditions.js';
import { actionOperation } from '../dialogState.js';
import { formatted } from '../formats.js';
import { linkClassName, useHref } from '../LinkView.js';
import { screenPath } from '../navigation.js';
import { resolveValue, resolveValues, type ScreenContext } from '../values.js';
import { useRunAction } from './shared.js';

/** A cell, or with `each` the cell once per element of its array (the element as `$element`). */
export function CellView({ cell, screen, context }: { cell: Cell; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
  if (cell.each === undefined) return <OneCell cell={cell} screen={screen} context={context} />;
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

function OneCell({ cell, screen, context }: { cell: Cell; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
  const { t } = useTranslation();
  const href = useHref();
  const run = useRunAction(screen);
  const pending = useSelector((state: OperationsRootState) => (cell.action ? isPending(actionOperation(screen.id, cell.action))(state) : false));
  if (!matches(cell.when, context)) return null;
  const values = formatted(resolveValues(cell.values, context), cell.formats, context.language);
  const text = cell.text ? t(cell.text, values) : String(resolveValue(cell.value, context) ?? '');
  switch (cell.type) {
    case 'mark':
      return <span className="mark">{text}</span>;
    case 'link':
      return (
        <a href={cell.screen ? screenPath(cell.screen, context) : href(cell.href ?? '', context)} {...(cell.external ? { target: '_blank', rel: 'noreferrer' } : {})}>
          {t(cell.label ?? '', values)}
        </a>
      );
    case 'select': {
      const current = String(resolveValue(cell.value, context) ?? '');
      return (
        <select
          aria-label={t(cell.label ?? '', values)}
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
    case 'button':
      return (
        <button
          type="button"
          className={cell.style === 'link' ? linkClassName('link') : `button button--small${cell.style === 'danger' ? ' button--danger' : ''}`}
          aria-label={cell.label ? t(cell.label, values) : undefined}
          disabled={pending}
          onClick={() => run(cell.action!, context)}
        >
          {text}
        </button>
      );
    default:
      return <span>{text}</span>;
  }
}
