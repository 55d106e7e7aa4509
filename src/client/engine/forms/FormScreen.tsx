/**
 * A screen whose content is one form from its definition, with the optional steps input → confirm → done. Each
 * step has its own URL (pushed to history); the draft lives in the store, so back and forward keep it.
 */
import { useEffect, useMemo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { deepEquals, type UiSchema } from '@rjsf/utils';
import type { FormStep, ScreenDefinition } from '../../../common/screens.js';
import { STEP_PARAM, stepPath } from '../routes.js';
import { useLeaveWarning } from '../useLeaveWarning.js';
import { ConfirmView } from './ConfirmView.js';
import { useFormModule } from './formModule.js';
import { formChanged, formReset, formSubmitted, selectForm, type FormEntry, type FormsRootState } from './formState.js';
import { actionRequested } from '../screen/actions.js';
import type { ScreenContext } from '../screen/values.js';
import { initialDataOf } from './pathParams.js';
import { SchemaForm } from './SchemaForm.js';

function StepIndicator({ screen, current }: { screen: ScreenDefinition; current: FormStep }): ReactElement | null {
  const { t } = useTranslation();
  const steps = screen.form?.steps ?? [];
  if (steps.length < 2) return null;
  return (
    <ol className="steps">
      {steps.map((step) => (
        <li key={step} className={step === current ? 'steps__item steps__item--current' : 'steps__item'} aria-current={step === current ? 'step' : undefined}>
          {t(screen.stepLabels?.[step] ?? `common.steps.${step}`)}
        </li>
      ))}
    </ol>
  );
}

export function FormScreen({ screen, context }: { screen: ScreenDefinition; context: Partial<ScreenContext> }): ReactElement {
  const form = screen.form!;
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const params = useParams();
  const steps = form.steps ?? ['input'];
  const current = (steps.find((step) => step === params[STEP_PARAM]) ?? steps[0]) as FormStep;
  const entry = useSelector((state: FormsRootState) => selectForm(state, screen.id));
  const uiSchema = form.uiSchema as UiSchema | undefined;
  const inputPath = stepPath(screen, 'input');
  const module = useFormModule(form.schema);
  const fields = Object.keys(module?.schema.properties ?? {});
  const initialData = useMemo(
    () => initialDataOf(form.initialData, context, fields),
    // the context is a new object on each render: what the form starts from changes with these
    [form.initialData, JSON.stringify(fields), context.me, context.data, context.query, context.local, context.item],
  );
  const hasDraft = Object.keys(entry.data).length > 0;
  const formData = hasDraft ? entry.data : initialData;
  const changed = hasDraft && !deepEquals(entry.data, initialData);

  useEffect(() => () => void dispatch(formReset({ formId: screen.id })), [dispatch, screen.id]);
  const store = useStore<FormsRootState>();
  const leaving = (formEntry: FormEntry) => formEntry.status === 'succeeded' || formEntry.released === true;
  useLeaveWarning(!leaving(entry) && (current === 'confirm' || changed), screen.path, () => !leaving(selectForm(store.getState(), screen.id)));

  const submit = (data: Record<string, unknown>) =>
    dispatch(
      formSubmitted({
        formId: screen.id,
        call: form.submit,
        context: { params: context.params, query: context.query, state: context.state, data: context.data, language: context.language, local: context.local, item: context.item },
        data,
        outcomes: form.outcomes,
        screenId: screen.id,
        donePath: steps.includes('done') ? stepPath(screen, 'done') : undefined,
      }),
    );

  if (params[STEP_PARAM] !== undefined && !steps.includes(params[STEP_PARAM] as FormStep)) return <Navigate to={inputPath} replace />;
  // a step reached without its data (reload, bookmark) starts again from input
  if (current === 'confirm' && !hasDraft) return <Navigate to={inputPath} replace />;
  if (current === 'done' && entry.status !== 'succeeded') return <Navigate to={inputPath} replace />;
  // the server refused the data: show its field errors where they can be corrected
  if (current === 'confirm' && entry.status === 'failed' && entry.fieldErrors.length + (entry.fieldMessages?.length ?? 0) > 0) return <Navigate to={inputPath} replace />;

  return (
    <>
      <StepIndicator screen={screen} current={current} />
      {current === 'input' && (
        <SchemaForm
          schemaName={form.schema}
          uiSchema={uiSchema}
          formData={formData}
          initialData={initialData}
          disabledUntilChanged={form.disabledUntilChanged}
          submitting={entry.status === 'submitting'}
          submitLabel={steps.includes('confirm') ? (form.confirmLabel ?? 'common.next') : form.submit.label}
          serverErrors={entry.fieldErrors}
          fieldMessages={entry.fieldMessages}
          valueContext={context}
          onChange={(data) => dispatch(formChanged({ formId: screen.id, data }))}
          actions={
            form.cancel ? (
              <button type="button" className="button" onClick={() => dispatch(actionRequested({ screenId: screen.id, actionId: form.cancel!.action, context: context as ScreenContext }))}>
                {t(form.cancel.label)}
              </button>
            ) : undefined
          }
          onSubmit={(data) => {
            if (!steps.includes('confirm')) return submit(data);
            dispatch(formChanged({ formId: screen.id, data }));
            navigate(stepPath(screen, 'confirm'));
          }}
        />
      )}
      {current === 'confirm' && (
        <section aria-labelledby="confirm-title">
          <h2 id="confirm-title">{t('common.confirmTitle')}</h2>
          <p>{t('common.confirmLead')}</p>
          <ConfirmView schemaName={form.schema} uiSchema={uiSchema} data={entry.data} inputPath={inputPath} />
          <div className="form__actions">
            <Link className="button" to={inputPath}>
              {t('common.back')}
            </Link>
            <button type="button" className="button button--primary" disabled={entry.status === 'submitting'} onClick={() => submit(entry.data)}>
              {entry.status === 'submitting' ? t('common.submitting') : t(form.submit.label)}
            </button>
          </div>
        </section>
      )}
      {current === 'done' && screen.done && (
        <section className="done" aria-labelledby="done-title">
          <h2 id="done-title">{t(screen.done.title)}</h2>
          <p>{t(screen.done.message)}</p>
          <Link className="button" to="/">
            {t('common.home')}
          </Link>
        </section>
      )}
    </>
  );
}
