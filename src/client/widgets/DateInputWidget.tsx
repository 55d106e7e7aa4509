/**
 * A date picked with the browser's own `<input type="date">` (yyyy-MM-dd), with the `min` and `max` of its options.
 * A pasted date is taken as text (SPEC §5): MM-dd-yyyy becomes yyyy-MM-dd, which the field's pattern then checks.
 */
import type { ClipboardEvent, ReactElement } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { startsOnAsSent } from '../../common/subscriptionRules.js';

export function DateInputWidget({ id, value, disabled, readonly, required, options, onChange, onBlur, onFocus, rawErrors, autofocus }: WidgetProps): ReactElement {
  const { min, max } = options as { min?: string; max?: string };
  return (
    <input
      type="date"
      id={id}
      name={id}
      className="input"
      value={typeof value === 'string' ? value : ''}
      min={min}
      max={max}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={`${id}__description`}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      onPaste={(event: ClipboardEvent<HTMLInputElement>) => {
        const pasted = event.clipboardData.getData('text');
        if (pasted.trim() === '') return;
        event.preventDefault();
        onChange(startsOnAsSent(pasted));
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}
