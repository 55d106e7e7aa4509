/**
 * A choice among options read from the screen's data (`ui:bind` options, engine/forms/bindings.ts): `choices` is a
 * list of {value, label, description?, disabled?}. Displays (`display`): `radio` (one), `cards` (check boxes as cards with a name
 * and a description, several when `multiple`) and `select` (a dropdown, `firstChoice` before the list, e.g. 'not
 * applicable' = 0). On an array field (`multiple`, or a radio choosing one into a list) the value is a list.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';

export interface Choice {
  value: unknown;
  label: string;
  description?: string;
  disabled?: boolean;
}

interface ChoicesOptions {
  choices?: Choice[];
  /** (Not `style`: RJSF takes that option for the field's CSS.) */
  display?: 'radio' | 'cards' | 'select';
  multiple?: boolean;
  /** A first option of the select, its label a locale key. */
  firstChoice?: { value: unknown; label: string };
}

export function ChoicesWidget({ id, schema, value, disabled, readonly, options, onChange, onBlur, onFocus, label, rawErrors }: WidgetProps): ReactElement {
  const { t } = useTranslation();
  const { choices = [], display: style = 'radio', multiple = false, firstChoice } = options as ChoicesOptions;
  const isList = schema.type === 'array';
  const chosen: unknown[] = isList ? (Array.isArray(value) ? value : []) : value === undefined ? [] : [value];
  const invalid = (rawErrors?.length ?? 0) > 0;
  const name = label ? t(label) : undefined;

  if (style === 'select') {
    const all = firstChoice ? [{ value: firstChoice.value, label: t(firstChoice.label) }, ...choices] : choices;
    const index = all.findIndex((choice) => chosen.includes(choice.value));
    return (
      <select
        id={id}
        className="select"
        value={index < 0 ? '' : String(index)}
        disabled={disabled || readonly}
        aria-invalid={invalid || undefined}
        onChange={(event) => {
          const picked = all[Number(event.target.value)];
          if (picked) onChange(isList ? [picked.value] : picked.value);
        }}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      >
        {index < 0 && <option value="" />}
        {all.map((choice, position) => (
          <option key={position} value={String(position)} disabled={(choice as Choice).disabled}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }

  const toggle = (choice: Choice, checked: boolean) => {
    if (!multiple) return onChange(isList ? [choice.value] : choice.value);
    const next = checked ? [...chosen.filter((existing) => existing !== choice.value), choice.value] : chosen.filter((existing) => existing !== choice.value);
    // keep the order of the options
    onChange(choices.map((option) => option.value).filter((optionValue) => next.includes(optionValue)));
  };
  return (
    // a radiogroup owns radios: without choices (nothing loaded, the screen gallery) it is a plain group
    <div id={id} className={`choices choices--${style}`} role={multiple || choices.length === 0 ? 'group' : 'radiogroup'} aria-label={name} tabIndex={-1}>
      {choices.map((choice, position) => {
        const choiceId = `${id}-${position}`;
        const checked = chosen.includes(choice.value);
        return (
          <div key={position} className={`choice${style === 'cards' ? ' choice--card' : ''}${checked ? ' choice--checked' : ''}`}>
            <input
              type={multiple ? 'checkbox' : 'radio'}
              id={choiceId}
              name={id}
              value={String(choice.value)}
              checked={checked}
              disabled={disabled || readonly || choice.disabled}
              aria-describedby={choice.description ? `${choiceId}-description` : undefined}
              onChange={(event) => toggle(choice, event.target.checked)}
              onBlur={() => onBlur(id, value)}
              onFocus={() => onFocus(id, value)}
            />
            <label className="choice__title" htmlFor={choiceId}>
              {choice.label}
            </label>
            {choice.description && (
              <span className="choice__description" id={`${choiceId}-description`}>
                {choice.description}
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
}
