/** The entered values, read-only, each with an edit link back to its field on the input step (SPEC 2.11 pattern). */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useFormModule } from './formModule.js';
import { Loader } from '../Loader.js';
import { fieldOrder } from './fieldOrder.js';

/** The parts of a property's schema the confirm view reads. */
type Property = { title?: string; oneOf?: Array<{ const?: unknown; title?: string }> };

/** Hidden fields and the captcha are means of sending, not entries to confirm. */
const UNCONFIRMED_WIDGETS = ['hidden', 'Captcha'];

/** The fields the confirm view lists, in order. */
export function confirmedFields(schema: RJSFSchema, uiSchema: UiSchema | undefined, language: string): string[] {
  return fieldOrder(schema, uiSchema, language).filter((name) => !UNCONFIRMED_WIDGETS.includes((uiSchema?.[name] as UiSchema | undefined)?.['ui:widget'] as string));
}

/** What the user entered; a choice shows its translated option label. */
export function displayValue(property: Property, value: unknown, t: (key: string) => string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const option = property.oneOf?.find((candidate) => candidate.const === value);
  return option?.title ? t(option.title) : String(value);
}

export interface ConfirmViewProps {
  schemaName: string;
  uiSchema?: UiSchema;
  data: Record<string, unknown>;
  /** The input step's path; each edit link goes there with the field's anchor. */
  inputPath: string;
}

export function ConfirmView({ schemaName, uiSchema, data, inputPath }: ConfirmViewProps): ReactElement {
  const { t, i18n } = useTranslation();
  const module = useFormModule(schemaName);
  if (!module) return <Loader />;
  const properties = (module.schema.properties ?? {}) as Record<string, Property>;
  return (
    <dl className="confirm">
      {confirmedFields(module.schema, uiSchema, i18n.language).map((name) => {
        const label = t(properties[name].title ?? name);
        const value = displayValue(properties[name], data[name], t);
        return (
          <div className="confirm__row" key={name}>
            <dt>{label}</dt>
            <dd>
              <span className="confirm__value">{value ?? t('common.notEntered')}</span>
              <Link className="confirm__edit" to={`${inputPath}#root_${name}`} aria-label={`${t('common.edit')}: ${label}`}>
                {t('common.edit')}
              </Link>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
