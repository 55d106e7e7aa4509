import { useEffect, useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { DateBlock } from '../../../../common/screens.js';
import { QueryField, useQueryParameter } from './QueryField.js';
import type { BlockProps } from './shared.js';

/** While a year is typed digit by digit the field holds years like 0002: only a cleared field or a four-digit year counts. */
const FULL_YEAR = /^[1-9]\d{3}-/;

/** A date field bound to a query parameter. */
export function DateView({ block, screen, context }: BlockProps<DateBlock>): ReactElement {
  const { t } = useTranslation();
  const [current, setCurrent] = useQueryParameter(block.query, context);
  // what the field shows while a date is typed, until it is one to put in the URL
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [current]);
  const id = `date-${screen.id}-${block.query}`;
  return (
    <QueryField id={id} label={t(block.label)}>
      <input
        id={id}
        type="date"
        className="select-field__select"
        value={draft}
        onChange={(event) => {
          const { value } = event.target;
          setDraft(value);
          if (value === '' || FULL_YEAR.test(value)) setCurrent(value);
        }}
      />
    </QueryField>
  );
}
