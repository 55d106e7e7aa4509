/**
 * Turns ajv's errors into the user's language. A rule's message is `validation.<keyword>` (with ajv's params, e.g.
 * {{limit}}), unless the schema names a locale key through ajv-errors' `errorMessage`.
 */
import type { TFunction } from 'i18next';
import type { ErrorSchema, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import type { FieldError } from '../../../common/errorCodes.js';

function fieldTitle(schema: RJSFSchema, property: string | undefined): string | undefined {
  const name = property?.replace(/^\./, '').split('.')[0];
  const child = name ? schema.properties?.[name] : undefined;
  return typeof child === 'object' && typeof child.title === 'string' ? child.title : undefined;
}

export function validationMessage(error: RJSFValidationError, t: TFunction): string {
  if (error.name === 'errorMessage' && error.message) return t(error.message);
  return t(`validation.${error.name}`, { ...(error.params ?? {}) });
}

export function makeTransformErrors(schema: RJSFSchema, t: TFunction) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors
      // a oneOf list reports each unmatched option as well; the oneOf error says it once
      .filter((error) => error.name !== 'const')
      .map((error) => {
        const message = validationMessage(error, t);
        const title = fieldTitle(schema, error.property);
        return { ...error, message, stack: title ? `${t(title)}: ${message}` : message };
      });
}

/** Server 422 field errors (`{field, code, meta}`, field in camelCase dot path) as RJSF extraErrors. */
export function serverErrorsToErrorSchema(fieldErrors: FieldError[], t: TFunction): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const { field, code, meta } of fieldErrors) {
    let node = root;
    for (const part of field.split('.')) node = (node[part] ??= {}) as Record<string, unknown>;
    const message = t(`errors.field.${code}`, { ...(meta ?? {}), defaultValue: t('errors.field.invalid') });
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), message];
  }
  return root as ErrorSchema;
}
