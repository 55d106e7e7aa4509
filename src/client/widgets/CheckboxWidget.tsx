import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';

/**
 * A boolean field: a checkbox with its label (a locale key, the schema's title) translated beside it, laid out as the
 * Choice widget's options are (the form's inputs are otherwise full width, with the label above).
 */
export function CheckboxWidget({ id, value, disabled, readonly, autofocus, label, schema, onChange, onBlur, onFocus }: WidgetProps): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="choice">
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={value === true}
        disabled={disabled || readonly}
        autoFocus={autofocus}
        aria-describedby={schema.description ? `${id}__description` : undefined}
        onChange={(event) => onChange(event.target.checked)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <label className="choice__title" htmlFor={id}>
        {t(label)}
      </label>
    </div>
  );
}
