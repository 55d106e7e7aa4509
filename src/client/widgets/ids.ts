/**
 * Ids of the custom widgets screens may name with "ui:widget" (besides RJSF's built-in ones: text, textarea,
 * select, radio, checkbox, checkboxes, password, email, hidden…). Kept free of React so the configuration
 * check can read it.
 */
export const WIDGET_IDS = ['SelectWidget', 'PasswordInput', 'PasswordStrength', 'Captcha', 'Choice', 'Choices', 'DateInput', 'ContactSelect'] as const;
export type WidgetId = (typeof WIDGET_IDS)[number];

export const BUILT_IN_WIDGET_IDS = [
  'text', 'textarea', 'select', 'radio', 'checkbox', 'checkboxes', 'password', 'email', 'hidden', 'date', 'updown',
  'range', 'file', 'url', 'color', 'uri', 'data-url', 'alt-date', 'time', 'datetime',
] as const;

/** The form fields the 'Captcha' widget fills (SPEC §3 Captcha values); a refused request empties them (a solution works once). */
export const CAPTCHA_FIELDS = ['capyChallengekey', 'capyAnswer'] as const;
