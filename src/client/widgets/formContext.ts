/**
 * What SchemaForm passes to widgets as RJSF's formContext. A widget that must hold back submitting (a password
 * weaker than the minimum strength, an unsolved captcha…) reports it here by its field id; the form's submit button
 * stays disabled while any field blocks it.
 */
import type { ReactNode } from 'react';

export interface WidgetFormContext {
  setSubmitBlocked(fieldId: string, blocked: boolean): void;
  /**
   * Sets several top-level fields of the form at once, for a widget that fills more than its own field (the captcha
   * fills its answer and the challenge key beside it). Absent in forms that do not offer it.
   */
  setFormValues?(values: Record<string, unknown>): void;
  /**
   * Runs one of the screen's actions with values added to its context (e.g. `{item: record}` for the modal form
   * editing a record, SPEC 2.12). Absent in forms outside a screen (the gallery, a modal's own form).
   */
  runAction?(actionId: string, values?: Record<string, unknown>): void;
  /**
   * Shows a fragment of screens/fragments/ with these values, as the screen's blocks do (the contact preview of SPEC
   * 2.11 is one definition, shown by the order summary and by the contact selector). Absent outside a screen.
   */
  renderFragment?(name: string, values: Record<string, unknown>): ReactNode;
}

export function isWidgetFormContext(value: unknown): value is WidgetFormContext {
  return typeof (value as Partial<WidgetFormContext> | null)?.setSubmitBlocked === 'function';
}
