/** ajv options shared by the browser's precompiled validators and the server, so both judge a form alike. */
export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  unicodeRegExp: true,
  /** Relative references to other fields' values, e.g. a new password that must differ from the current one. */
  $data: true,
} as const;
