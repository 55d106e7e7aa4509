/**
 * The project's RJSF templates. Schema titles, descriptions, placeholders and option labels are locale keys, so every
 * template translates what it prints; validation messages arrive already translated (see validationMessages.ts).
 */
import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { getDefaultRegistry } from '@rjsf/core';
import type {
  BaseInputTemplateProps,
  ErrorListProps,
  FieldErrorProps,
  FieldTemplateProps,
  ObjectFieldTemplateProps,
  TemplatesType,
} from '@rjsf/utils';
import { useAfterFirstPaint } from '../afterFirstPaint.js';
import type { ResolvedNote } from './bindings.js';
import { FormPlaceholder } from './FormFrame.js';
import { errorListText } from './validationMessages.js';

const defaults = getDefaultRegistry();
const DefaultBaseInput = defaults.templates.BaseInputTemplate;

/** The notes a binding gives a field (engine/forms/bindings.ts): a locale key with values and inline links. */
function FieldNotes({ notes }: { notes: ResolvedNote[] }): ReactElement {
  return (
    <>
      {notes.map((note, index) => (
        <p key={index} className={`field__note field__note--${note.style}`}>
          <Trans
            i18nKey={note.text}
            values={note.values}
            components={note.links.map((link, linkIndex) =>
              // a path of the product navigates inside it; anything else is a page of its own
              link.href.startsWith('/') && !link.external ? (
                <Link key={linkIndex} to={link.href} />
              ) : (
                <a key={linkIndex} href={link.href} {...(link.external ? { target: '_blank', rel: 'noreferrer' } : {})} />
              ),
            )}
          />
        </p>
      ))}
    </>
  );
}

function FieldTemplate({ id, label, required, children, errors, rawDescription, hidden, displayLabel, rawErrors, schema, uiSchema }: FieldTemplateProps): ReactElement {
  const { t } = useTranslation();
  if (hidden) return <div hidden>{children}</div>;
  const { notes = [], anchor } = (uiSchema?.['ui:options'] as { notes?: ResolvedNote[]; anchor?: string } | undefined) ?? {};
  const isObject = schema.type === 'object';
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <div className={`field${invalid ? ' field--invalid' : ''}${isObject ? ' field--object' : ''}`} id={anchor ?? `${id}__field`}>
      {displayLabel && label && !isObject && (
        <label className="field__label" htmlFor={id}>
          {t(label)}
          {/* the star is for the eye (the form's note says what it means): the input's `required` tells assistive technology, which would otherwise read "NameRequired" */}
          {required && (
            <span className="field__required" aria-hidden="true">
              *
            </span>
          )}
        </label>
      )}
      {children}
      {rawDescription && !isObject && <p className="field__help" id={`${id}__description`}>{t(rawDescription)}</p>}
      {notes.length > 0 && <FieldNotes notes={notes} />}
      {errors}
    </div>
  );
}

/**
 * A message's words; a part written `<help>…</help>` links to the field's help page (`ui:options.errorHelpLink`, the
 * locale key of its URL), as the learner grid's own limit message does (SPEC §8: maximumNumberUsers with a help link).
 */
function MessageText({ message, helpLink }: { message: string; helpLink?: string }): ReactElement {
  const { t } = useTranslation();
  const parts = message.split(/<help>(.*?)<\/help>/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 && helpLink ? (
          <a key={index} href={t(helpLink)} target="_blank" rel="noreferrer">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

function FieldErrorTemplate({ errors, fieldPathId, uiSchema }: FieldErrorProps): ReactElement | null {
  if (!errors?.length) return null;
  const helpLink = (uiSchema?.['ui:options'] as { errorHelpLink?: string } | undefined)?.errorHelpLink;
  return (
    <ul className="field__errors" id={`${fieldPathId.$id}__error`}>
      {errors.map((error, index) => (
        <li key={index}>{typeof error === 'string' ? <MessageText message={error} helpLink={helpLink} /> : error}</li>
      ))}
    </ul>
  );
}

/** The fields a form draws in its first paint: about a first screen's worth, on a phone and on a desktop. */
export const FIRST_PAINT_FIELDS = 3;

/**
 * A form's fields, its first FIRST_PAINT_FIELDS shown ones in the first paint and the rest after it, in their
 * placeholder's place until then (issue 47: the wizard's whole form — the admins' cards, the learners' sheet, the
 * contacts — rendered, styled and laid out before its first field showed, ~200 ms at 1× CPU on a cold load).
 */
function FieldsFirstScreenFirst({ properties }: { properties: ObjectFieldTemplateProps['properties'] }): ReactElement {
  const painted = useAfterFirstPaint();
  const shown = properties.filter((property) => !property.hidden);
  const waiting = painted ? 0 : Math.max(0, shown.length - FIRST_PAINT_FIELDS);
  const first = waiting > 0 ? properties.slice(0, properties.indexOf(shown[FIRST_PAINT_FIELDS]!)) : properties;
  return (
    <>
      {first.map((property) => property.content)}
      {waiting > 0 && <FormPlaceholder rows={waiting} />}
    </>
  );
}

function ObjectFieldTemplate({ properties, schema, fieldPathId }: ObjectFieldTemplateProps): ReactElement {
  const { t } = useTranslation();
  const isRoot = fieldPathId.path.length === 0;
  return (
    <fieldset className="form__fields" id={fieldPathId.$id}>
      {isRoot && schema.title && <legend className="form__title">{t(schema.title)}</legend>}
      {isRoot && (schema.required?.length ?? 0) > 0 && <p className="form__required-note">{t('common.requiredNote')}</p>}
      {isRoot ? <FieldsFirstScreenFirst properties={properties} /> : properties.map((property) => property.content)}
    </fieldset>
  );
}

function ErrorListTemplate({ errors, schema }: ErrorListProps): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="form__error-list" role="alert">
      <p>{t('common.errorList')}</p>
      <ul>
        {errors.map((error, index) => (
          <li key={index}>
            <MessageText message={errorListText(error, schema, t)} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function BaseInputTemplate(props: BaseInputTemplateProps): ReactElement {
  const { t } = useTranslation();
  return <DefaultBaseInput {...props} placeholder={props.placeholder ? t(props.placeholder) : undefined} />;
}

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  FieldErrorTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate,
  BaseInputTemplate,
};
