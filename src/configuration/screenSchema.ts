/** JSON Schema of a screen definition (screens/*.json); mirrors ScreenDefinition in src/common/screens.ts. */
import { ACCESS_CLASSES, FORM_STEPS, PAGE_WIDTHS } from '../common/screens.js';

const localeKey = { type: 'string', minLength: 1 };
const stepLabels = Object.fromEntries(FORM_STEPS.map((step) => [step, localeKey]));

export const screenDefinitionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'path', 'access', 'width', 'title', 'breadcrumb'],
  properties: {
    $comment: { type: 'string' },
    id: { type: 'string', pattern: '^[a-z][a-zA-Z0-9-]*$' },
    path: { type: 'string', pattern: '^/' },
    access: { enum: ACCESS_CLASSES },
    width: { enum: PAGE_WIDTHS },
    title: localeKey,
    lead: localeKey,
    breadcrumb: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['label'],
        properties: { label: localeKey, to: { type: 'string', pattern: '^/' } },
      },
    },
    stepLabels: { type: 'object', additionalProperties: false, properties: stepLabels },
    component: { type: 'string' },
    reauthentication: { type: 'boolean' },
    done: {
      type: 'object',
      additionalProperties: false,
      required: ['title', 'message'],
      properties: { title: localeKey, message: localeKey },
    },
    form: {
      type: 'object',
      additionalProperties: false,
      required: ['schema', 'submit'],
      properties: {
        schema: { type: 'string' },
        uiSchema: { type: 'object' },
        steps: { type: 'array', items: { enum: FORM_STEPS }, uniqueItems: true, minItems: 1 },
        disabledUntilChanged: { type: 'boolean' },
        confirmLabel: localeKey,
        initialData: { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*(\\.[a-zA-Z][a-zA-Z0-9]*)*$' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'field', 'message'],
            properties: {
              status: { type: 'integer', minimum: 400, maximum: 599 },
              code: { type: 'string', minLength: 1 },
              field: { type: 'string', minLength: 1 },
              message: localeKey,
            },
          },
        },
        submit: {
          type: 'object',
          additionalProperties: false,
          required: ['method', 'path', 'label'],
          properties: { method: { enum: ['POST', 'PUT', 'PATCH'] }, path: { type: 'string', minLength: 1 }, label: localeKey },
        },
        onSuccess: {
          type: 'object',
          additionalProperties: false,
          properties: {
            flash: localeKey,
            navigate: { type: 'string', pattern: '^/' },
            event: { type: 'string', pattern: '^[a-z][a-zA-Z]*/[a-z][a-zA-Z]*$' },
          },
        },
      },
    },
  },
} as const;
