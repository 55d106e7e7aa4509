import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { DetailsBlock } from '../../../../common/screens.js';
import { matches } from '../conditions.js';
import { formatted } from '../formats.js';
import { resolveValue, resolveValues, type ScreenContext } from '../values.js';
import { LinkItemView } from './LinkItemView.js';
import type { BlockProps } from './shared.js';

export function DetailsView({ block, screen, context }: BlockProps<DetailsBlock>): ReactElement {
  const { t } = useTranslation();
  const rowText = (row: DetailsBlock['rows'][number], rowContext: ScreenContext) =>
    row.text ? t(row.text, formatted(resolveValues(row.values, rowContext), row.formats, rowContext.language)) : String(resolveValue(row.value, rowContext) ?? '');
  return (
    <dl className="details">
      {block.rows
        .filter((row) => matches(row.when, context))
        .map((row) => (
          <div key={row.label} className="details__row">
            <dt>{t(row.label)}</dt>
            <dd>
              {row.each === undefined ? (
                <span className="details__value">{rowText(row, context)}</span>
              ) : (
                (Array.isArray(resolveValue(row.each, context)) ? (resolveValue(row.each, context) as unknown[]) : []).map((element, index) => (
                  <span key={index} className="details__value details__value--line">
                    {rowText(row, { ...context, element })}
                  </span>
                ))
              )}
              {row.link && <LinkItemView item={row.link} screen={screen} context={context} />}
              {row.note && <span className="details__note">{t(row.note)}</span>}
            </dd>
          </div>
        ))}
    </dl>
  );
}
