/**
 * JSON Schemas of the definition files: screens (screens/*.json; mirrors ScreenDefinition in src/common/screens.ts),
 * fragments, the named conditions and the menu. `npm run schemas` writes them to screens/schema/ (each file names its
 * own with `$schema`, so editors complete and flag while one types); check:config checks against the same objects.
 */
import { ACCESS_CLASSES, CALL_TIMEOUTS, FORM_STEPS, PAGE_WIDTHS, VALUE_FORMATS } from '../common/screens.js';
import { CONDITION_NAME_PATTERN, CONTEXT_KEYS, KEYWORDS } from './conditions.js';

const localeKey = { type: 'string', minLength: 1 };
const stepLabels = Object.fromEntries(FORM_STEPS.map((step) => [step, localeKey]));
const valueRef = { type: 'string' };
const values = { type: 'object', additionalProperties: valueRef };
/** A condition (src/configuration/conditions.ts): check.ts also compiles each one. */
const condition = { $ref: '#/$defs/condition' };
const conditionList = { type: 'array', minItems: 1, items: condition };
const conditionName = { type: 'string', pattern: CONDITION_NAME_PATTERN };
/** A path into the screen context: one of its keys, then dotted steps. */
const contextPath = `^(${CONTEXT_KEYS.join('|')})(\\.[^.]+)*$`;
const conditionDefinition = {
  description:
    'When this holds: a name (screens/conditions.json or the conditions of this file), a list (all of them), or paths into the screen context ("form.projectClassId") with the value or JSON Schema each must match. See docs/configuration.md.',
  anyOf: [
    conditionName,
    conditionList,
    {
      type: 'object',
      properties: { not: condition, if: condition, then: condition, else: condition, allOf: conditionList, anyOf: conditionList, oneOf: conditionList },
      propertyNames: { anyOf: [{ enum: [...KEYWORDS] }, { pattern: contextPath }] },
    },
  ],
};
/** Named conditions of a file: `"withClass": {"form.projectClassId": {"minimum": 1}}`. */
const namedConditions = { type: 'object', propertyNames: conditionName, additionalProperties: condition };
const schemaReference = { type: 'string', description: 'The schema editors check this file against.' };
const screenId = { type: 'string', pattern: '^[a-z][a-zA-Z0-9-]*$' };
const eventType = { type: 'string', pattern: '^[a-z][a-zA-Z]*/[a-z][a-zA-Z]*$' };
const method = { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] };
const formats = { type: 'object', additionalProperties: { enum: VALUE_FORMATS } };
const fragmentName = { type: 'string', pattern: '^[a-z][a-z0-9-]*$' };

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, required, properties });

const initialValues = { type: 'object', additionalProperties: { anyOf: [valueRef, { type: 'array', minItems: 1, items: { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, object({ when: condition, value: valueRef }, ['when', 'value'])] } }] } };
const screenLink = object({ screen: screenId, params: values, query: values, state: values, replace: { type: 'boolean' } }, ['screen']);
const flash = {
  oneOf: [localeKey, object({ message: localeKey, kind: { enum: ['success', 'info', 'warning', 'error'] }, values }, ['message'])],
};
const callProperties = {
  method,
  path: { type: 'string', minLength: 1, pattern: '^[^/]' },
  version: { enum: ['v1', 'v2'] },
  params: values,
  query: values,
  body: { type: 'object', additionalProperties: { type: ['string', 'boolean', 'number'] } },
  bearer: object({ header: { type: 'string', pattern: '^x-[a-z0-9-]+$' }, token: valueRef }, ['header', 'token']),
  multipart: { type: 'boolean' },
  ifMatch: valueRef,
  passkey: object({ register: { type: 'string', minLength: 1 }, body: values }, ['register']),
  idempotencyKey: { type: 'boolean' },
  timeout: { enum: [...CALL_TIMEOUTS] },
  instead: {
    type: 'array',
    minItems: 1,
    description: 'Other endpoints for this call: the first whose condition holds replaces method, path and params.',
    items: object({ when: condition, method, path: { type: 'string', minLength: 1, pattern: '^[^/]' }, params: values }, ['when', 'path']),
  },
};
const outcome = object(
  {
    on: { oneOf: [{ enum: ['success', 'failure'] }, { type: 'integer', minimum: 300, maximum: 599 }] },
    code: { type: 'string', minLength: 1 },
    when: condition,
    field: { type: 'string', minLength: 1 },
    message: localeKey,
    flash,
    navigate: { oneOf: [{ const: 'done' }, screenLink] },
    reload: { type: 'boolean' },
    general: { type: 'boolean' },
    reset: { type: 'array', items: { type: 'string', minLength: 1 } },
    event: eventType,
    set: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
    normalize: { type: 'object', additionalProperties: { enum: ['rowErrors', 'changedRows'] } },
    signOut: { type: 'boolean' },
    setFields: values,
    save: object({ fileName: localeKey, values, type: { type: 'string' }, bom: { type: 'boolean' }, content: valueRef }, ['fileName']),
    copy: valueRef,
    open: valueRef,
    remember: values,
    conflict: object(
      {
        latest: object(callProperties, ['path']),
        record: { type: 'string', minLength: 1 },
        fields: values,
        labels: {
          type: 'object',
          additionalProperties: object({ options: valueRef, key: { type: 'string', minLength: 1 }, label: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } }, ['options', 'key', 'label']),
        },
      },
      ['latest', 'record'],
    ),
  },
  ['on'],
);
const outcomes = { type: 'array', items: outcome };
const linkItem = object(
  {
    label: localeKey,
    ariaLabel: localeKey,
    screen: screenLink,
    path: { type: 'string', pattern: '^/' },
    params: values,
    href: { type: 'string', minLength: 1 },
    external: { type: 'boolean' },
    action: { type: 'string', minLength: 1 },
    style: { enum: ['primary', 'danger', 'link'] },
    when: condition,
    disabled: object({ when: condition }, ['when']),
  },
  ['label'],
);
const cell = object(
  {
    type: { enum: ['text', 'mark', 'link', 'select', 'button'] },
    value: valueRef,
    text: localeKey,
    values,
    formats,
    href: { type: 'string', minLength: 1 },
    screen: screenLink,
    external: { type: 'boolean' },
    each: valueRef,
    options: { type: 'array', items: object({ value: { type: 'string' }, label: localeKey }, ['value', 'label']) },
    label: localeKey,
    action: { type: 'string', minLength: 1 },
    style: { enum: ['primary', 'danger', 'link'] },
    when: condition,
  },
  ['type'],
);
/** Cells inside a link (an itemList's item): words and marks only, nothing interactive. */
const inertCell = { allOf: [cell, { properties: { type: { enum: ['text', 'mark'] } } }] };
const block = {
  oneOf: [
    object(
      {
        type: { const: 'itemList' },
        items: valueRef,
        caption: localeKey,
        link: screenLink,
        title: { type: 'array', minItems: 1, items: inertCell },
        cells: { type: 'array', items: inertCell },
        empty: localeKey,
        when: condition,
      },
      ['type', 'items', 'caption', 'link', 'title', 'cells'],
    ),
    object(
      {
        type: { const: 'select' },
        label: localeKey,
        query: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
        options: { type: 'array', minItems: 1, items: object({ value: { type: 'string' }, label: localeKey }, ['value', 'label']) },
        optionsFrom: object({ items: valueRef, value: valueRef, label: localeKey, values }, ['items', 'value', 'label']),
        when: condition,
      },
      ['type', 'label', 'query', 'options'],
    ),
    object({ type: { const: 'date' }, label: localeKey, query: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' }, when: condition }, ['type', 'label', 'query']),
    object({ type: { const: 'fragment' }, name: fragmentName, values: { type: 'object' }, when: condition }, ['type', 'name']),
    object(
      { type: { const: 'upload' }, label: localeKey, accept: { type: 'string' }, action: { type: 'string', minLength: 1 }, style: { enum: ['primary', 'link'] }, when: condition },
      ['type', 'label', 'action'],
    ),
    object({ type: { const: 'divider' }, label: localeKey, when: condition }, ['type', 'label']),
    object(
      {
        type: { const: 'text' },
        text: localeKey,
        values,
        formats,
        links: { type: 'array', items: object({ href: { type: 'string', minLength: 1 }, external: { type: 'boolean' } }, ['href']) },
        style: { enum: ['lead', 'note', 'attention', 'warning', 'danger', 'heading', 'subheading'] },
        when: condition,
      },
      ['type', 'text'],
    ),
    object({ type: { const: 'banner' }, text: localeKey, values, kind: { enum: ['info', 'warning'] }, closable: { type: 'boolean' }, when: condition }, ['type', 'text']),
    object({ type: { const: 'links' }, items: { type: 'array', items: linkItem, minItems: 1 }, when: condition }, ['type', 'items']),
    object(
      {
        type: { const: 'details' },
        rows: {
          type: 'array',
          items: object({ label: localeKey, value: valueRef, text: localeKey, values, formats, each: valueRef, link: linkItem, note: localeKey, when: condition }, ['label']),
        },
        when: condition,
      },
      ['type', 'rows'],
    ),
    object(
      { type: { const: 'cards' }, items: valueRef, title: valueRef, image: valueRef, text: valueRef, link: screenLink, heading: localeKey, when: condition },
      ['type', 'items', 'title'],
    ),
    object(
      {
        type: { const: 'table' },
        rows: valueRef,
        caption: localeKey,
        columns: { type: 'array', minItems: 1, items: object({ title: localeKey, cells: { type: 'array', items: cell }, when: condition }, ['title', 'cells']) },
        empty: localeKey,
        rowNumberFrom: { type: 'integer' },
        virtual: object(
          {
            width: { type: 'integer', minimum: 1, description: "the table's width, px" },
            height: { type: 'integer', minimum: 1, description: "the rows' view height before the page is laid out, px" },
            maxHeight: { type: 'integer', minimum: 1, description: "the scroll container's maximum height, px" },
            rowHeight: { type: 'integer', minimum: 1 },
            expandedRowHeight: { type: 'integer', minimum: 1, description: "a row's height while its expand blocks are shown" },
            overscan: { type: 'integer', minimum: 0, description: 'rows kept in the DOM beyond the view on each side' },
            scrollTo: valueRef,
          },
          ['width', 'height', 'maxHeight', 'rowHeight', 'overscan'],
        ),
        loadsMore: { type: 'string', minLength: 1, description: 'the paged data entry (data.<key>.pages) whose next page the virtual table loads as it scrolls' },
        muted: object({ when: condition }, ['when']),
        expand: object({ when: condition, blocks: { type: 'array', items: { $ref: '#/$defs/block' } } }, ['when', 'blocks']),
        alongside: values,
        when: condition,
      },
      ['type', 'rows', 'caption', 'columns'],
    ),
    object(
      {
        type: { const: 'list' },
        items: valueRef,
        caption: localeKey,
        title: valueRef,
        date: valueRef,
        text: valueRef,
        link: object({ href: valueRef, label: localeKey }, ['href', 'label']),
        empty: localeKey,
        style: { enum: ['code'] },
        when: condition,
      },
      ['type', 'items', 'caption', 'title'],
    ),
    object({ type: { const: 'form' }, when: condition }, ['type']),
    object(
      { type: { const: 'panel' }, title: localeKey, style: { enum: ['info', 'hint'] }, blocks: { type: 'array', items: { $ref: '#/$defs/block' } }, when: condition },
      ['type', 'blocks'],
    ),
    object(
      { type: { const: 'image' }, src: valueRef, alt: localeKey, width: { type: 'integer', minimum: 1 }, height: { type: 'integer', minimum: 1 }, when: condition },
      ['type', 'src'],
    ),
    object(
      {
        type: { const: 'columns' },
        columns: {
          type: 'array',
          minItems: 1,
          items: object({ blocks: { type: 'array', items: { $ref: '#/$defs/block' } }, width: { enum: ['main', 'side', 'fit'] } }, ['blocks']),
        },
        when: condition,
      },
      ['type', 'columns'],
    ),
    object(
      {
        type: { const: 'linkList' },
        items: valueRef,
        each: object(
          {
            when: condition,
            label: valueRef,
            href: valueRef,
            style: { enum: ['primary', 'link', 'button'] },
            texts: { type: 'array', items: object({ when: condition, text: localeKey, values }, ['text']) },
          },
          ['label', 'href'],
        ),
        when: condition,
      },
      ['type', 'items', 'each'],
    ),
    object(
      {
        type: { const: 'chart' },
        title: localeKey,
        caption: { ...localeKey, description: 'the caption of the table of its numbers, for screen readers' },
        points: { ...valueRef, description: 'an array of objects: the points' },
        x: { type: 'string', minLength: 1, description: "the field of a point holding its category (a bar each)" },
        series: { type: 'string', minLength: 1, description: 'the field of a point holding the name of its series (a colour each)' },
        value: { type: 'string', minLength: 1, description: 'the field of a point holding its number' },
        xFormat: { enum: VALUE_FORMATS, description: "how a category is written, e.g. month ('2026-06': 'Jun 2026', '2026年6月')" },
        empty: localeKey,
        when: condition,
      },
      ['type', 'title', 'caption', 'points', 'x', 'series', 'value'],
    ),
  ],
};

export const screenDefinitionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  // a screen that extends another has the rest from it
  if: { not: { required: ['extends'] } },
  then: { required: ['id', 'path', 'access', 'width', 'title', 'breadcrumb'], properties: { form: { required: ['schema', 'submit'] } } },
  $defs: { block, condition: conditionDefinition },
  properties: {
    $schema: schemaReference,
    $comment: { type: 'string' },
    extends: { ...screenId, description: 'The screen this one is, with its own keys laid over it.' },
    conditions: namedConditions,
    id: screenId,
    path: { type: 'string', pattern: '^/' },
    access: { enum: ACCESS_CLASSES },
    width: { enum: PAGE_WIDTHS },
    title: localeKey,
    lead: localeKey,
    breadcrumb: {
      type: 'array',
      items: object({ label: localeKey, to: { type: 'string', pattern: '^/' }, screen: screenLink }, ['label']),
    },
    query: { type: 'object', additionalProperties: { type: 'string' } },
    flag: { type: 'string', minLength: 1 },
    data: {
      type: 'object',
      additionalProperties: object(
        {
          ...callProperties,
          outcomes,
          after: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
          when: condition,
          pages: object({ rows: { type: 'string', minLength: 1 }, cursor: { type: 'string', minLength: 1 }, next: { type: 'string', minLength: 1 } }, ['rows', 'cursor', 'next']),
        },
        ['path'],
      ),
    },
    blocks: { type: 'array', items: { $ref: '#/$defs/block' } },
    actions: {
      type: 'object',
      additionalProperties: object(
        {
          confirm: object(
            {
              title: localeKey,
              body: localeKey,
              values,
              confirmLabel: localeKey,
              cancelLabel: localeKey,
              danger: { type: 'boolean' },
              closeOnEscape: { type: 'boolean' },
              closeOnBackdrop: { type: 'boolean' },
              alternatives: { type: 'array', items: object({ when: condition, body: localeKey }, ['when', 'body']) },
            },
            ['title', 'body', 'confirmLabel'],
          ),
          form: object(
            {
              schema: { type: 'string' },
              uiSchema: { type: 'object' },
              initialData: { oneOf: [{ type: 'string', pattern: '^\\$' }, initialValues] },
              title: localeKey,
              warning: localeKey,
              submitLabel: localeKey,
              cancelLabel: localeKey,
            },
            ['schema', 'title', 'submitLabel'],
          ),
          call: object(callProperties, ['method', 'path']),
          outcomes,
        },
        ['outcomes'],
      ),
    },
    redirect: object({ afterMs: { type: 'integer', minimum: 0 }, to: screenLink }, ['afterMs', 'to']),
    stepLabels: { type: 'object', additionalProperties: false, properties: stepLabels },
    stepsBefore: { type: 'array', items: localeKey },
    stepTitles: { type: 'object', additionalProperties: false, properties: stepLabels },
    component: { type: 'string' },
    reauthentication: { type: 'boolean' },
    done: object({ title: localeKey, message: localeKey }, ['title', 'message']),
    form: object(
      {
        schema: { type: 'string' },
        uiSchema: { type: 'object' },
        steps: { type: 'array', items: { enum: FORM_STEPS }, uniqueItems: true, minItems: 1 },
        disabledUntilChanged: { type: 'boolean' },
        confirmLabel: localeKey,
        initialData: { oneOf: [{ type: 'string', pattern: '^\\$' }, initialValues] },
        submit: object({ ...callProperties, method: { enum: ['POST', 'PUT', 'PATCH'] }, label: localeKey }, ['method', 'path', 'label']),
        outcomes,
        cancel: object({ label: localeKey, action: { type: 'string', minLength: 1 } }, ['label', 'action']),
        check: object({ ...callProperties, method: { enum: ['POST', 'PUT', 'PATCH'] }, outcomes }, ['method', 'path']),
        transform: object({ name: { type: 'string', minLength: 1 }, values }, ['name']),
        invalid: object({ flash, hash: { type: 'boolean' } }),
        confirmBlocks: { type: 'array', items: { $ref: '#/$defs/block' } },
        doneBlocks: { type: 'array', items: { $ref: '#/$defs/block' } },
        back: { type: 'boolean' },
        serverMessages: { type: 'string', minLength: 1 },
      },
      // (required unless the screen extends another: see `then` above)
    ),
  },
} as const;

/** JSON Schema of frame/navigation.json: the menu and footer links. */
export const navigationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['menu', 'footer'],
  $defs: { condition: conditionDefinition },
  properties: { $schema: schemaReference, $comment: { type: 'string' }, menu: { type: 'array', items: linkItem }, footer: { type: 'array', items: linkItem } },
} as const;

/** JSON Schema of a fragment file (screens/fragments/*.json): its inputs described in words, and its blocks. */
export const fragmentDefinitionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['blocks'],
  $defs: { block, condition: conditionDefinition },
  properties: {
    $schema: schemaReference,
    $comment: { type: 'string' },
    conditions: namedConditions,
    values: { type: 'object', additionalProperties: { type: 'string' } },
    blocks: { type: 'array', minItems: 1, items: { $ref: '#/$defs/block' } },
  },
} as const;

/** JSON Schema of screens/conditions.json: the conditions every definition may name. */
export const conditionsFileSchema = {
  type: 'object',
  additionalProperties: false,
  $defs: { condition: conditionDefinition },
  properties: { $schema: schemaReference, $comment: { type: 'string' } },
  patternProperties: { [CONDITION_NAME_PATTERN]: condition },
} as const;

/** The draft of JSON Schema that ajv's default class implements: the forms of schemas/ name it in `$schema`. */
export const JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/** The schemas written to screens/schema/<kind>.schema.json, by kind. */
export const DEFINITION_SCHEMAS = {
  screen: { title: 'Screen definition (screens/*.json)', schema: screenDefinitionSchema },
  fragment: { title: 'Fragment (screens/fragments/*.json)', schema: fragmentDefinitionSchema },
  conditions: { title: 'Named conditions (screens/conditions.json)', schema: conditionsFileSchema },
  navigation: { title: 'Menu and footer (frame/navigation.json)', schema: navigationSchema },
} as const;
export type DefinitionKind = keyof typeof DEFINITION_SCHEMAS;

/** Where the schema files are, from the project root. */
export const DEFINITION_SCHEMA_DIR = 'screens/schema';

/** The text of screens/schema/<kind>.schema.json: what `npm run schemas` writes and check:config expects. */
export function definitionSchemaText(kind: DefinitionKind): string {
  const { title, schema } = DEFINITION_SCHEMAS[kind];
  return `${JSON.stringify({ $schema: JSON_SCHEMA_DRAFT, title, ...schema }, null, 2)}\n`;
}
