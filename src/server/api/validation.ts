/**
 * Request validation with the form schema files (DESIGN §3.1: one source per rule) and the mapping of
 * ajv errors to the wire's field errors (SPEC §8): 422 `{errors: [{field, code, meta}]}`.
 *
 * A route names its form: `schema: { body: formBody('registration-request') }`, a marker that the validator
 * compiler below recognises: it validates the camelCased, trimmed body against `loadFormSchemas()[name]`. The
 * OpenAPI document shows the form's wire rendering as a component the operation refers to (api/openapi.ts).
 */
import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { API_ERROR, FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import { AJV_OPTIONS } from '../../configuration/ajvOptions.js';
import { loadFormSchemas, type JsonSchema } from '../../configuration/load.js';
import type { FormName } from '../../common/api/forms.js';
import { toSnakeKey, wireField } from './wire.js';

/** The options the browser's precompiled validators use too, plus what only the server needs. */
const FORM_AJV_OPTIONS: Options = {
  ...AJV_OPTIONS, // allErrors (required by ajv-errors), $data, unicode patterns
  verbose: true, // errors carry the failing data, to tell "nothing entered" from "wrong"
  removeAdditional: true, // unknown keys are dropped (additionalProperties: false), never stored
  useDefaults: true,
};

let formSchemas: Record<string, JsonSchema> | undefined;
const formValidators = new Map<string, ValidateFunction>();
let formAjv: Ajv | undefined;

/** The form schemas of schemas/, read once per process. */
export function getFormSchemas(): Record<string, JsonSchema> {
  formSchemas ??= loadFormSchemas();
  return formSchemas;
}

function formValidator(name: string): ValidateFunction {
  let validate = formValidators.get(name);
  if (!validate) {
    const schema = getFormSchemas()[name];
    if (!schema) throw new Error(`Unknown form schema "${name}" (no schemas/${name}.json)`);
    if (!formAjv) {
      formAjv = new Ajv(FORM_AJV_OPTIONS);
      addFormats(formAjv);
      ajvErrors(formAjv);
    }
    validate = formAjv.compile(schema);
    formValidators.set(name, validate);
  }
  return validate;
}

/** A body that failed its form schema: answered 422 with the field errors. */
export class FormValidationError extends Error {
  readonly statusCode = 422;
  constructor(readonly fieldErrors: FieldError[]) {
    super(`Validation failed: ${fieldErrors.map((error) => `${error.field} ${error.code}`).join(', ')}`);
    this.name = 'FormValidationError';
  }
}

/** A body that is not even an object. */
export class BadRequestError extends Error {
  readonly statusCode = 400;
  readonly code = API_ERROR.badRequest;
  constructor(message: string) {
    super(message);
    this.name = 'BadRequestError';
  }
}

/**
 * Validates `data` (camelCase keys, as after the preValidation hook) against the named form schema.
 * May remove unknown keys and fill defaults in `data`. Returns the field errors, or null when valid.
 */
export function validateForm(name: string, data: unknown): FieldError[] | null {
  const validate = formValidator(name);
  if (validate(data)) return null;
  return inFormOrder(getFormSchemas()[name]!, mapAjvErrors(validate.errors ?? []));
}

/** Sorts field errors the way the form lists its fields (ajv reports `required` before the rest). */
function inFormOrder(schema: JsonSchema, errors: FieldError[]): FieldError[] {
  const order = Object.keys((schema.properties ?? {}) as Record<string, unknown>).map((key) => toSnakeKey(key));
  const rank = (error: FieldError) => {
    const index = order.indexOf(error.field.split('.', 1)[0]!);
    return index === -1 ? order.length : index;
  };
  return errors
    .map((error, index) => ({ error, index }))
    .sort((a, b) => rank(a.error) - rank(b.error) || a.index - b.index)
    .map(({ error }) => error);
}

// ---------------------------------------------------------------------------------------------------
// ajv errors → field errors

const PRIORITY: Record<string, number> = { [FIELD_ERROR.blank]: 0, [FIELD_ERROR.tooLong]: 1, [FIELD_ERROR.invalid]: 2 };

function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment));
}

/** Nothing entered: absent, null, an empty string or an empty array. */
function isEmptyValue(value: unknown): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function hasData(error: ErrorObject): boolean {
  return 'data' in error;
}

/** One ajv error → one field error (before de-duplication). */
function mapOne(error: ErrorObject): FieldError {
  const segments = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { field: wireField([...segments, String(params.missingProperty)]), code: FIELD_ERROR.blank, meta: {} };
    case 'additionalProperties':
      return { field: wireField([...segments, String(params.additionalProperty)]), code: FIELD_ERROR.invalid, meta: {} };
    case 'errorMessage': {
      // ajv-errors replaced the original errors with a locale key; blank still wins when nothing was entered.
      const originals = (params.errors as ErrorObject[] | undefined) ?? [];
      const empty = originals.some((original) => hasData(original) && isEmptyValue(original.data));
      const field = wireField(segments);
      return empty
        ? { field, code: FIELD_ERROR.blank, meta: {} }
        : { field, code: FIELD_ERROR.invalid, meta: { messageKey: error.message } };
    }
    case 'maxLength':
      return { field: wireField(segments), code: FIELD_ERROR.tooLong, meta: { length: params.limit } };
    case 'minLength':
    case 'minItems':
      return params.limit === 1 || (hasData(error) && isEmptyValue(error.data))
        ? { field: wireField(segments), code: FIELD_ERROR.blank, meta: {} }
        : { field: wireField(segments), code: FIELD_ERROR.invalid, meta: { length: params.limit } };
    default:
      // pattern, format, enum, const, oneOf, type, minimum, …: wrong value, unless nothing was entered.
      return hasData(error) && isEmptyValue(error.data)
        ? { field: wireField(segments), code: FIELD_ERROR.blank, meta: {} }
        : { field: wireField(segments), code: FIELD_ERROR.invalid, meta: {} };
  }
}

/**
 * Maps ajv errors to one field error per field, in the order the fields first fail.
 * When a field fails several rules the most basic wins: blank, then tooLong, then invalid
 * (preferring an invalid that carries a locale key from ajv-errors).
 */
export function mapAjvErrors(errors: readonly ErrorObject[]): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const error of errors) {
    // "must match then schema": the failing branch reports its own errors on the fields.
    if (error.keyword === 'if') continue;
    const mapped = mapOne(error);
    const current = byField.get(mapped.field);
    if (!current || better(mapped, current)) byField.set(mapped.field, mapped);
  }
  // An error on the whole object (a combinator around field rules) only matters when no field failed.
  if (byField.size > 1) byField.delete('');
  return [...byField.values()];
}

function better(candidate: FieldError, current: FieldError): boolean {
  const a = PRIORITY[candidate.code] ?? 3;
  const b = PRIORITY[current.code] ?? 3;
  if (a !== b) return a < b;
  return candidate.meta?.messageKey !== undefined && current.meta?.messageKey === undefined;
}

// ---------------------------------------------------------------------------------------------------
// Fastify integration

/** Marks a route's body schema as a form of schemas/; the OpenAPI document shows it as a component (api/openapi.ts). */
export const FORM_MARKER = 'x-form';

/**
 * The body schema of a route that receives a form: `schema: { body: formBody('admin-name') }`; or one of several
 * forms, `formBody('admin-name', 'affiliation-role')` (one path, two calls of SPEC §7): the body is the first form
 * whose fields it carries (see `chooseForm`), and the document shows the choice as `oneOf`.
 */
export function formBody<Name extends FormName>(name: Name): { [FORM_MARKER]: Name };
export function formBody(...names: [FormName, FormName, ...FormName[]]): { [FORM_MARKER]: FormName[] };
export function formBody(...names: FormName[]): { [FORM_MARKER]: FormName | FormName[] } {
  for (const name of names) {
    if (!getFormSchemas()[name]) throw new Error(`Unknown form schema "${name}" (no schemas/${name}.json)`);
  }
  return { [FORM_MARKER]: names.length === 1 ? names[0]! : names };
}

function fieldsOf(name: string): string[] {
  return Object.keys((getFormSchemas()[name]!.properties ?? {}) as Record<string, unknown>);
}

/**
 * Which of the forms a body is, by its keys (camelCase), before any validation: the first form that has a field the
 * body carries; none, the first form (whose validation then says what is missing). `foreign` are the body's keys
 * that belong to one of the other forms only: a body that mixes two forms is refused, rather than having the
 * other form's fields silently dropped.
 */
export function chooseForm(names: readonly string[], data: Record<string, unknown>): { name: string; foreign: string[] } {
  const keys = Object.keys(data);
  const name = names.find((candidate) => fieldsOf(candidate).some((field) => keys.includes(field))) ?? names[0]!;
  const own = fieldsOf(name);
  const foreign = keys.filter((key) => !own.includes(key) && names.some((other) => fieldsOf(other).includes(key)));
  return { name, foreign };
}

/**
 * Fastify's validator compiler: form bodies go to validateForm; every other schema (params,
 * querystring, plain bodies) to an ajv configured like Fastify's default.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const marker = (schema as Record<string, unknown>)[FORM_MARKER];
    const forms = typeof marker === 'string' ? [marker] : Array.isArray(marker) ? (marker as string[]) : undefined;
    if (httpPart === 'body' && forms) {
      for (const form of forms) formValidator(form); // compile now: a broken schema fails at startup, not on the first request
      return (data: unknown) => {
        if (typeof data !== 'object' || data === null || Array.isArray(data)) {
          return { error: new BadRequestError('The request body must be a JSON object') };
        }
        const { name, foreign } = forms.length === 1 ? { name: forms[0]!, foreign: [] } : chooseForm(forms, data as Record<string, unknown>);
        const fieldErrors = [
          ...(validateForm(name, data) ?? []),
          ...foreign.map((key) => ({ field: wireField([key]), code: FIELD_ERROR.invalid, meta: {} })),
        ];
        return fieldErrors.length > 0 ? { error: new FormValidationError(fieldErrors) } : { value: data };
      };
    }
    return routeValidator(schema as object);
  };
}

const routeValidators = new Map<string, ValidateFunction>();
let routeAjv: Ajv | undefined;

/**
 * The validator of a route's params, querystring or plain body, compiled once per process for each schema (by its
 * text): the same routes' schemas come again with every app a process builds (the tests build hundreds), and a
 * validator keeps no state between calls.
 */
function routeValidator(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = routeValidators.get(key);
  if (!validate) {
    if (!routeAjv) {
      routeAjv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
      addFormats(routeAjv);
    }
    validate = routeAjv.compile(schema);
    routeValidators.set(key, validate);
  }
  return validate;
}
