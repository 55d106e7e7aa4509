/**
 * A screen whose content is one form from its definition, with the optional steps input → confirm → done. Each
 * step has its own URL (pushed to history; a screen may name the step segment in its own path, '/…/new/:step?'); the
 * draft lives in the store, so back and forward keep it. Next may first make a check call (a dry run, SPEC 2.11)
 * whose success leads to confirm; the confirm and done steps may show blocks of their own.
 */
import { useEffect, useMemo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { deepEquals, type UiSchema } from '@rjsf/utils';
import type { Block, FormStep, ScreenDefinition } from '../../../common/screens.js';
import { basePath, fillRoute, STEP_PARAM, stepPath } from '../routes.js';
import { useLeaveWarning } from '../useLeaveWarning.js';
import { ConfirmView } from './ConfirmView.js';
import { currentStep, placeholderRows } from './FormFrame.js';
import { fieldOrder } from './fieldOrder.js';
import { ConflictPanel } from './ConflictPanel.js';
import { useFormModule } from './formModule.js';
import { formChanged, formReset, formSubmitted, selectForm, type FormEntry, type FormsRootState, type FormSubmission } from './formState.js';
import { actionRequested } from '../screen/dialogState.js';
import { flashOf } from '../screen/calls.js';
import type { ScreenContext } from '../screen/values.js';
import { bindUiSchema, withClearedFields } from './bindings.js';
import { initialDataOf } from './pathParams.js';
import { SchemaForm } from './SchemaForm.js';

/** The first of the fields in error in the form's order (its uiSchema's ui:order, else the schema's). */
export function firstFieldInError(paths: readonly string[], order: readonly string[]): string | undefined {
  const position = (path: string) => {
    const index = order.indexOf(path.split('.')[0]!);
    return index < 0 ? order.length : index;
  };
  return [...paths].sort((a, b) => position(a) - position(b))[0];
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
const filled = (data: Record<string, unknown>) => Object.fromEntries(Object.entries(data).filter(([, value]) => !isEmpty(value)));

/**
 * The same data for a person: fields without a value (absent, empty, an empty list) are alike — RJSF fills a form's
 * empty lists when it mounts, which is no change of the admin's (DESIGN §7: RJSF has no dirty state).
 */
export function sameData(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return deepEquals(filled(a), filled(b));
}

/** A field's anchor on the input step: its `ui:options.anchor` (SPEC 2.11's 'services', 'contact'…), else its id. */
export function anchorOf(uiSchema: UiSchema | undefined, path: string): string {
  const field = path.split('.')[0]!;
  const anchor = ((uiSchema?.[field] as UiSchema | undefined)?.['ui:options'] as { anchor?: unknown } | undefined)?.anchor;
  return typeof anchor === 'string' ? anchor : `root_${path.split('.').join('_')}`;
}

/**
 * `renderBlocks` shows the confirm and done steps' blocks: the block renderer (screen/blocks/index.tsx), which shows
 * this form in turn, passes itself, so the two modules do not import each other.
 */
export function FormScreen({
  screen,
  context,
  renderBlocks,
}: {
  screen: ScreenDefinition;
  context: Partial<ScreenContext>;
  renderBlocks: (blocks: Block[], context: ScreenContext) => ReactElement;
}): ReactElement {
  const form = screen.form!;
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const params = useParams();
  const { hash } = useLocation();
  const steps = form.steps ?? ['input'];
  const current = currentStep(screen, params);
  const entry = useSelector((state: FormsRootState) => selectForm(state, screen.id));
  const inputPath = stepPath(screen, 'input', params);
  const module = useFormModule(form.schema);
  const fields = Object.keys(module?.schema.properties ?? {});
  const rawUiSchema = form.uiSchema as UiSchema | undefined;
  const initialData = useMemo(
    () => initialDataOf(form.initialData, context, fields),
    // the context is a new object on each render: what the form starts from changes with these
    [form.initialData, JSON.stringify(fields), context.me, context.data, context.query, context.local, context.item],
  );
  const hasDraft = Object.keys(entry.data).length > 0;
  // fields bound to be empty (ui:bind clear) are left out of what the form starts from and holds
  const initialShown = useMemo(() => withClearedFields(initialData, initialData, rawUiSchema, context), [initialData, rawUiSchema, context.data, context.local]);
  const formData = hasDraft ? entry.data : entry.overrides ? withClearedFields({ ...initialData, ...entry.overrides }, initialData, rawUiSchema, context) : initialShown;
  const changed = hasDraft ? !sameData(entry.data, initialShown) : Object.keys(entry.overrides ?? {}).length > 0;
  const uiSchema = bindUiSchema(rawUiSchema, { ...context, form: formData }, t);

  useEffect(() => () => void dispatch(formReset({ formId: screen.id })), [dispatch, screen.id]);
  const store = useStore<FormsRootState>();
  const leaving = (formEntry: FormEntry) => formEntry.status === 'succeeded' || formEntry.released === true;
  // SPEC 2.11: confirm always asks before leaving; input when a field was touched or the URL has a hash
  const warn = current === 'confirm' || (current === 'input' && (changed || hash !== ''));
  useLeaveWarning(!leaving(entry) && warn, fillRoute(basePath(screen), params), () => !leaving(selectForm(store.getState(), screen.id)));

  const submission = (data: Record<string, unknown>): FormSubmission => ({
    formId: screen.id,
    call: form.submit,
    context: { params: context.params, query: context.query, state: context.state, data: context.data, language: context.language, local: context.local, item: context.item },
    data,
    outcomes: form.outcomes,
    screenId: screen.id,
    transform: form.transform,
    donePath: steps.includes('done') ? stepPath(screen, 'done', params) : undefined,
  });
  const submit = (data: Record<string, unknown>) => dispatch(formSubmitted(submission(data)));
  const check = (data: Record<string, unknown>) =>
    dispatch(formSubmitted({ ...submission(data), call: form.check!, outcomes: form.check!.outcomes, check: true, donePath: undefined, confirmPath: stepPath(screen, 'confirm', params) }));
  const runAction = (actionId: string, values: Record<string, unknown> = {}) =>
    dispatch(actionRequested({ screenId: screen.id, actionId, context: { ...context, ...values } as ScreenContext }));
  const invalid = (paths: string[]) => {
    if (form.invalid?.flash) dispatch(flashOf(form.invalid.flash, context));
    const first = firstFieldInError(paths, module ? fieldOrder(module.schema, rawUiSchema, i18n.language) : []);
    if (form.invalid?.hash && first) navigate({ hash: anchorOf(rawUiSchema, first) }, { replace: true });
  };

  if (params[STEP_PARAM] !== undefined && !steps.includes(params[STEP_PARAM] as FormStep)) return <Navigate to={inputPath} replace />;
  // a step reached without its data (reload, bookmark) starts again from input; with a check, only after it passed
  if (current === 'confirm' && (!hasDraft || (form.check && entry.status === 'idle'))) return <Navigate to={inputPath} replace />;
  if (current === 'done' && entry.status !== 'succeeded') return <Navigate to={inputPath} replace />;
  // an anchor of the confirm step (a section's 'edit' link, SPEC 2.11) is a field of the input step
  if (current === 'confirm' && hash !== '') return <Navigate to={`${inputPath}${hash}`} replace />;
  // the server refused the data: show its field errors where they can be corrected
  if (current === 'confirm' && entry.status === 'failed' && entry.fieldErrors.length + (entry.fieldMessages?.length ?? 0) > 0) return <Navigate to={inputPath} replace />;

  const confirmContext = { ...context, form: entry.data } as ScreenContext;
  return (
    <>
      {current !== 'done' && entry.conflict && (
        <ConflictPanel formId={screen.id} conflict={entry.conflict} data={formData} schema={module?.schema} uiSchema={uiSchema} submitting={entry.status === 'submitting'} />
      )}
      {current === 'input' && (
        <SchemaForm
          schemaName={form.schema}
          placeholderRows={placeholderRows(screen)}
          uiSchema={uiSchema}
          formData={formData}
          initialData={initialShown}
          disabledUntilChanged={form.disabledUntilChanged}
          submitting={entry.status === 'submitting'}
          submitLabel={steps.includes('confirm') ? (form.confirmLabel ?? 'common.next') : form.submit.label}
          serverErrors={entry.fieldErrors}
          serverMessages={form.serverMessages}
          fieldMessages={entry.fieldMessages}
          onChange={(data) => dispatch(formChanged({ formId: screen.id, data: withClearedFields(data, initialData, rawUiSchema, { ...context, form: data }) }))}
          runAction={runAction}
          renderFragment={(name, values) => renderBlocks([{ type: 'fragment', name, values }], context as ScreenContext)}
          onInvalid={invalid}
          valueContext={context}
          actions={
            form.cancel ? (
              <button type="button" className="button" onClick={() => runAction(form.cancel!.action)}>
                {t(form.cancel.label)}
              </button>
            ) : undefined
          }
          onSubmit={(data) => {
            if (form.check) return check(data);
            if (!steps.includes('confirm')) return submit(data);
            dispatch(formChanged({ formId: screen.id, data }));
            navigate(stepPath(screen, 'confirm', params));
          }}
        />
      )}
      {current === 'confirm' && (
        <section aria-labelledby="confirm-title">
          <h2 id="confirm-title">{t('common.confirmTitle')}</h2>
          {form.confirmBlocks ? (
            renderBlocks(form.confirmBlocks, confirmContext)
          ) : (
            <>
              <p>{t('common.confirmLead')}</p>
              <ConfirmView schemaName={form.schema} uiSchema={rawUiSchema} data={entry.data} inputPath={inputPath} />
            </>
          )}
          <div className="form__actions">
            {form.back !== false && (
              <Link className="button" to={inputPath}>
                {t('common.back')}
              </Link>
            )}
            <button type="button" className="button button--primary" disabled={entry.status === 'submitting'} onClick={() => submit(entry.data)}>
              {entry.status === 'submitting' ? t('common.submitting') : t(form.submit.label)}
            </button>
          </div>
        </section>
      )}
      {current === 'done' && form.doneBlocks && (
        <section className="done">
          {renderBlocks(form.doneBlocks, confirmContext)}
        </section>
      )}
      {current === 'done' && !form.doneBlocks && screen.done && (
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
