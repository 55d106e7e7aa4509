/**
 * What SchemaForm passes to widgets as RJSF's formContext. A widget that must hold back submitting (a password
 * weaker than the minimum strength, an unsolved captcha…) reports it here by its field id; the form's submit button
 * stays disabled while any field blocks it.
 */
export interface WidgetFormContext {
  setSubmitBlocked(fieldId: string, blocked: boolean): void;
}

export function isWidgetFormContext(value: unknown): value is WidgetFormContext {
  return typeof (value as Partial<WidgetFormContext> | null)?.setSubmitBlocked === 'function';
}
