/**
 * A form's server field errors (422, SPEC §8 Field errors) as the form's messages: with the forms, not in the first
 * load (the general handling of every other failure is errorCatalogue.ts's).
 */
import type { FieldError } from '../../common/errorCodes.js';
import { camelCasePath } from './caseConversion.js';

export interface FormErrorMessage {
  /** A locale key, 'errors.field.<code>'; or keys tried in order, the first that exists shown (i18next). */
  messageKey: string | string[];
  params?: Record<string, unknown>;
}

export interface FormErrors {
  [field: string]: FormErrors | FormErrorMessage[];
}

/** Field error codes with a message in locales/<lang>/errors.json 'field' (SPEC §8 Field errors). */
export const KNOWN_FIELD_ERROR_CODES: ReadonlySet<string> = new Set([
  'blank',
  'duplicated',
  'invalid',
  'notFound',
  'tooLong',
  'taken',
  'nameIdFormat',
  'nameIdMustBeBlankWhenNameIdTypeIsEmail',
  'nameIdMustBePresentWhenNameIdTypeIsNameId',
  'nameIdMustBeBlankWhenIdpNotSpecified',
  'maintenance',
  // single sign-on (issue 45; Verify's refusals and requiring it: sso.errors)
  'httpsRequired',
  'privateAddress',
  'freeMailDomain',
]);

/**
 * The message of one field error (SPEC §8): an item with an errorCode → errors.<errorCode>, falling back to
 * errors.error_with_code; a known code → errors.field.<code>; any other code → errors.unknown_error.
 */
export function fieldErrorMessage(fieldError: FieldError): FormErrorMessage {
  const params = fieldError.meta && Object.keys(fieldError.meta).length > 0 ? { ...fieldError.meta } : undefined;
  if (fieldError.errorCode !== undefined) {
    return { messageKey: [`errors.${fieldError.errorCode}`, 'errors.error_with_code'], params: { ...params, errorCode: fieldError.errorCode } };
  }
  const messageKey = KNOWN_FIELD_ERROR_CODES.has(fieldError.code) ? `errors.field.${fieldError.code}` : 'errors.unknown_error';
  return params ? { messageKey, params } : { messageKey };
}

/**
 * `[{field: 'phone_number', code: 'tooLong', meta: {length: 15}}]`
 *   → `{phoneNumber: [{messageKey: 'errors.field.tooLong', params: {length: 15}}]}`;
 * dot paths nest ('users.0.email' → {users: {0: {email: [...]}}}).
 */
export function fieldErrorsToFormErrors(fieldErrors: readonly FieldError[] | undefined, messageOf: (fieldError: FieldError) => FormErrorMessage = fieldErrorMessage): FormErrors {
  const result: FormErrors = {};
  for (const fieldError of fieldErrors ?? []) {
    const segments = camelCasePath(fieldError.field).split('.').filter((segment) => segment !== '');
    if (segments.length === 0) continue;
    const message = messageOf(fieldError);
    let node: FormErrors = result;
    for (const [index, segment] of segments.entries()) {
      let existing = node[segment];
      if (Array.isArray(existing)) {
        if (index === segments.length - 1) {
          // the field's own message list: add to it
          existing.push(message);
          break;
        }
        // the field has messages of its own and now one of a deeper path ('users', then 'users.3.email'): its own
        // move to '_errors' so that the deeper one keeps its place
        existing = node[segment] = { _errors: existing };
      }
      if (index === segments.length - 1) {
        if (existing === undefined) node[segment] = [message];
        else ((existing._errors as FormErrorMessage[] | undefined) ?? (existing._errors = [])).push(message);
        break;
      }
      node = existing ?? (node[segment] = {});
    }
  }
  return result;
}
