/**
 * What a form's screen shows before the form engine (RJSF, its widgets, the form's validators) is there: the steps and
 * a light placeholder the form's size, busy (issue 47). The form's block shows it while the screen's data and the
 * engine's chunks arrive, so the screen's frame does not wait for them; the form replaces the placeholder where it stood.
 */
import type { CSSProperties, ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { FormStep, ScreenDefinition } from '../../../common/screens.js';
import { BusyPlace } from '../BusyPlace.js';
import { STEP_PARAM } from '../routes.js';

/** The step the URL names, else the first. */
export function currentStep(screen: ScreenDefinition, params: Record<string, string | undefined>): FormStep {
  const steps = screen.form?.steps ?? ['input'];
  return steps.find((step) => step === params[STEP_PARAM]) ?? steps[0]!;
}

export function StepIndicator({ screen, current }: { screen: ScreenDefinition; current: FormStep }): ReactElement | null {
  const { t } = useTranslation();
  const steps = screen.form?.steps ?? [];
  if (steps.length < 2) return null;
  return (
    <ol className="steps">
      {(screen.stepsBefore ?? []).map((label) => (
        <li key={label} className="steps__item steps__item--done">
          {t(label)}
        </li>
      ))}
      {steps.map((step) => (
        <li key={step} className={step === current ? 'steps__item steps__item--current' : 'steps__item'} aria-current={step === current ? 'step' : undefined}>
          {t(screen.stepLabels?.[step] ?? `common.steps.${step}`)}
        </li>
      ))}
    </ol>
  );
}

/** The fields the form's uiSchema lays out (its ui:order, else its field entries): the placeholder's height. */
export function placeholderRows(screen: ScreenDefinition): number {
  const uiSchema = (screen.form?.uiSchema ?? {}) as Record<string, unknown>;
  const order = Array.isArray(uiSchema['ui:order']) ? (uiSchema['ui:order'] as string[]) : Object.keys(uiSchema);
  return Math.max(2, order.filter((field) => field !== '*' && !field.startsWith('ui:')).length);
}

/** In the form's place until it is there: as tall as `rows` fields and the buttons. */
export function FormPlaceholder({ rows }: { rows: number }): ReactElement {
  return <BusyPlace className="form-placeholder" style={{ '--rows': rows } as CSSProperties} />;
}

/**
 * A form's screen: its steps, then the form, or the placeholder in the form's place while the screen's data and the
 * form engine are on their way. The one owner of the steps from the frame's first paint to the form: they are not
 * drawn again as the data and the form arrive (each new drawing a commit of 20–25 ms under Lighthouse's tracing).
 */
export function FormFrame({ screen, children }: { screen: ScreenDefinition; children?: ReactNode }): ReactElement {
  const params = useParams();
  return (
    <>
      <StepIndicator screen={screen} current={currentStep(screen, params)} />
      {children ?? <FormPlaceholder rows={placeholderRows(screen)} />}
    </>
  );
}
