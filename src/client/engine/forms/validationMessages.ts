/**
 * Turns ajv's errors into the user's language. A rule's message is `validation.<keyword>` (with ajv's params, e.g.
 * {{limit}}), unless the schema names a locale key through ajv-errors' `errorMessage`.
 */
import type { TFunction } from 'i18next';
import type { ErrorSchema, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../../common/errorCodes.js';
import { camelCasePath } from '../../api/caseConversion.js';
import { fieldErrorMessage, fieldErrorsToFormErrors, type FormErrorMessage, type FormErrors } from '../../api/fieldErrors.js';

export function fieldTitle(schema: RJSFSchema, property: string | undefined): string | undefined {
  const name = property?.replace(/^\./, '').split('.')[0];
  const child = name ? schema.properties?.[name] : undefined;
  return typeof child === 'object' && typeof child.title === 'string' ? child.title : undefined;
}

export function validationMessage(error: RJSFValidationError, t: TFunction): string {
  if (error.name === 'errorMessage' && error.message) return t(error.message);
  return t(`validation.${error.name}`, { ...(error.params ?? {}) }) as string;
}

export function makeTransformErrors(schema: RJSFSchema, t: TFunction) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      // a oneOf list reports each unmatched option as well; the oneOf error says it once. An if/then rule reports
      // 'must match then' beside the error of the field inside then, which is the one to show.
      .filter((error) => error.name !== 'const' && error.name !== 'if')
      .map((error) => {
        const message = validationMessage(error, t);
        const title = fieldTitle(schema, error.property);
        return { ...error, message, stack: title ? `${t(title)}: ${message}` : message };
      });
}

/**
 * What the form's error list says of an error: its stack, except for the errors RJSF adds itself (the server's, as
 * extraErrors), whose stack is the property path and the message ('.users The number of…'): the field's title and
 * the message instead, as for the browser's own errors.
 */
export function errorListText(error: RJSFValidationError, schema: RJSFSchema, t: TFunction): string {
  const message = error.message ?? '';
  if (error.property === undefined || error.stack !== `${error.property} ${message}`) return error.stack;
  const title = fieldTitle(schema, error.property);
  return title ? `${t(title)}: ${message}` : message;
}

/**
 * The message of a server field error under a form's own prefix (FormDefinition.serverMessages, SPEC §8 'Application
 * errors': the message of the field and code): `<prefix>.<field>.<code>` with row indexes left out
 * ('users.3.email' duplicated → 'subscriptions.errors.users.email.duplicated'), its meta as values; undefined where
 * no such key exists (the error catalogue's message then).
 */
export function formServerMessage(fieldError: FieldError, prefix: string, exists: (key: string) => boolean): FormErrorMessage | undefined {
  // an item naming its own message code is shown by it (SPEC §8), whatever its field
  if (fieldError.errorCode !== undefined) return undefined;
  const path = camelCasePath(fieldError.field).split('.').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
  const key = [prefix, ...path, fieldError.code].join('.');
  if (!exists(key)) return undefined;
  return fieldError.meta && Object.keys(fieldError.meta).length > 0 ? { messageKey: key, params: { ...fieldError.meta } } : { messageKey: key };
}

/** Server 422 field errors as RJSF extraErrors, in the user's language (codes mapped by the error catalogue, or by the form's own prefix). */
export function serverErrorsToErrorSchema(fieldErrors: readonly FieldError[], t: TFunction, prefix?: string, exists: (key: string) => boolean = () => false): ErrorSchema {
  const translate = (node: FormErrors): ErrorSchema => {
    const schema: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(node)) {
      if (!Array.isArray(child)) schema[name] = translate(child);
      else {
        const messages = child.map(({ messageKey, params }) => t(messageKey, params));
        // '_errors' holds a field's own messages when deeper paths also have some
        if (name === '_errors') schema.__errors = messages;
        else schema[name] = { __errors: messages };
      }
    }
    return schema as ErrorSchema;
  };
  const messageOf = (fieldError: FieldError) => (prefix ? formServerMessage(fieldError, prefix, exists) : undefined) ?? fieldErrorMessage(fieldError);
  return translate(fieldErrorsToFormErrors(fieldErrors, messageOf));
}

/** A message (locale key) to show on a form field, e.g. a server error the screen maps to a field. */
export interface FieldMessage {
  field: string;
  messageKey: string;
}

/** Adds field messages to an RJSF error schema. */
export function withFieldMessages(errorSchema: ErrorSchema, messages: readonly FieldMessage[], t: TFunction): ErrorSchema {
  if (messages.length === 0) return errorSchema;
  const result = { ...(errorSchema as Record<string, { __errors?: string[] }>) };
  for (const { field, messageKey } of messages) {
    const existing = result[field] ?? {};
    result[field] = { ...existing, __errors: [...(existing.__errors ?? []), t(messageKey)] };
  }
  return result as ErrorSchema;
}
