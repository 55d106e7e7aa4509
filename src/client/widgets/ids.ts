/**
 * Ids of the custom widgets screens may name with "ui:widget" (besides RJSF's built-in ones: text, textarea,
 * select, radio, checkbox, checkboxes, password, email, hidden…). Kept free of React so the configuration
 * check can read it.
 */
export const WIDGET_IDS = ['SelectWidget', 'CheckboxWidget', 'PasswordInput', 'PasswordStrength', 'Captcha', 'Choice', 'Choices', 'DateInput', 'ContactSelect'] as const;
export type WidgetId = (typeof WIDGET_IDS)[number];

/**
 * Ids of the custom fields screens may name with "ui:field" (a field renders a whole property, e.g. an array, where a
 * widget renders one value), each with the JSON Schema of its ui:options: `npm run check:config` checks every use
 * against it, and the locale keys in it (`x-localeKey` marks them) against locales/.
 */
export const FIELD_IDS = ['LearnerGrid'] as const;
export type FieldId = (typeof FIELD_IDS)[number];

const localeKey = { type: 'string', 'x-localeKey': true } as const;
/** A value read from the screen context ('$data.serviceGroup.maximumUsers'; '$form.serviceIds': the form's data). */
const contextValue = { type: 'string', pattern: '^\\$' } as const;

export const FIELD_OPTIONS_SCHEMAS: Record<FieldId, Record<string, unknown>> = {
  LearnerGrid: {
    type: 'object',
    additionalProperties: false,
    properties: {
      label: localeKey,
      columns: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', additionalProperties: false, required: ['field', 'label'], properties: { field: { type: 'string' }, label: localeKey } },
      },
      columnOrder: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      rows: { type: 'integer', minimum: 1 },
      pasteIndicatorCells: { type: 'integer', minimum: 1 },
      maximum: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }, contextValue] },
      maximumDivisor: { anyOf: [{ type: 'integer', minimum: 1 }, contextValue] },
      /** The fewest rows (a class's minimum, SPEC §5: below it only warns): a value for the heading ({{minimum}}). */
      minimum: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }, contextValue] },
      /** The message when there are more rows than the maximum, with {{number}} (default learnerGrid.limitExceeded). */
      limitMessage: localeKey,
      heading: {
        anyOf: [
          localeKey,
          {
            type: 'object',
            additionalProperties: false,
            required: ['keys'],
            properties: { by: {}, keys: { type: 'object', additionalProperties: localeKey }, default: localeKey },
          },
        ],
      },
      helpLink: localeKey,
      helpLabel: localeKey,
      limitHelpLink: localeKey,
      /** The page a `<help>…</help>` part of the field's error messages links to (the field template; the server's maximumNumberUsers). */
      errorHelpLink: localeKey,
      uniqueFields: { type: 'array', items: { type: 'string' } },
      /** Why the rows that came with an id cannot be changed or removed (bound by condition: a class's reduction deadline). */
      lockKept: localeKey,
      /** Why no row can be added (bound by condition: a class's enlargement deadline). */
      lockAdded: localeKey,
      /**
       * What the grid says when an edit of a locked row was undone: a kept row changed or removed (`lockKeptRefused`,
       * with that row's values), a row added (`lockAddedRefused`, with the refused row's values); both also get
       * {{lineNo}}, the row's number.
       */
      lockKeptRefused: localeKey,
      lockAddedRefused: localeKey,
      /** The field's anchor on the page (the field template's id), e.g. SPEC 2.11's 'users' of the confirm view's edit links. */
      anchor: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_-]*$' },
    },
  },
};

export const BUILT_IN_WIDGET_IDS = [
  'text', 'textarea', 'select', 'radio', 'checkbox', 'checkboxes', 'password', 'email', 'hidden', 'date', 'updown',
  'range', 'file', 'url', 'color', 'uri', 'data-url', 'alt-date', 'time', 'datetime',
] as const;

/** The form fields the 'Captcha' widget fills (SPEC §3 Captcha values); a refused request empties them (a solution works once). */
export const CAPTCHA_FIELDS = ['capyChallengekey', 'capyAnswer'] as const;
