import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelectBlock } from '../../../../common/screens.js';
import { resolveValue, resolveValues } from '../values.js';
import { QueryField, useQueryParameter } from './QueryField.js';
import type { BlockProps } from './shared.js';

/** A dropdown bound to a query parameter. */
export function SelectView({ block, screen, context }: BlockProps<SelectBlock>): ReactElement {
  const { t } = useTranslation();
  const [current, setCurrent] = useQueryParameter(block.query, context);
  const id = `select-${screen.id}-${block.query}`;
  const items = block.optionsFrom ? resolveValue(block.optionsFrom.items, context) : undefined;
  const fromData = (Array.isArray(items) ? items : []).map((item) => {
    const itemContext = { ...context, item };
    const { value, label, values } = block.optionsFrom!;
    return { value: String(resolveValue(value, itemContext) ?? ''), text: t(label, resolveValues(values, itemContext)) };
  });
  return (
    <QueryField id={id} label={t(block.label)}>
      <select id={id} className="select-field__select" value={current} onChange={(event) => setCurrent(event.target.value)}>
        {block.options.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
        {fromData.map((option) => (
          <option key={`data-${option.value}`} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </QueryField>
  );
}
