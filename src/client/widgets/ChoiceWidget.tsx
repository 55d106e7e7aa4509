/**
 * Radio buttons for a `oneOf` of constants, each with its name (title) and a description under it (SPEC 2.13: the
 * invite page's roles). Titles and descriptions are locale keys of the schema.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { WidgetProps } from '@rjsf/utils';

interface Choice {
  const?: unknown;
  title?: string;
  description?: string;
}

export function ChoiceWidget({ id, schema, value, disabled, readonly, onChange, onBlur, onFocus }: WidgetProps): ReactElement {
  const { t } = useTranslation();
  const choices = ((schema.oneOf ?? []) as Choice[]).filter((choice) => choice.const !== undefined);
  return (
    <div className="choices" role="radiogroup" aria-label={schema.title ? t(schema.title) : undefined}>
      {choices.map((choice) => {
        const choiceId = `${id}-${String(choice.const)}`;
        return (
          <div key={String(choice.const)} className="choice">
            <input
              type="radio"
              id={choiceId}
              name={id}
              value={String(choice.const)}
              checked={value === choice.const}
              disabled={disabled || readonly}
              aria-describedby={choice.description ? `${choiceId}-description` : undefined}
              onChange={() => onChange(choice.const)}
              onBlur={() => onBlur(id, value)}
              onFocus={() => onFocus(id, value)}
            />
            {/* the name alone labels the radio; the description is its description */}
            <label className="choice__title" htmlFor={choiceId}>
              {t(choice.title ?? String(choice.const))}
            </label>
            {choice.description && (
              <span className="choice__description" id={`${choiceId}-description`}>
                {t(choice.description)}
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
}
