/**
 * The form of an action shown in its dialog (ActionDefinition.form, SPEC 2.12): the engine's form renderer with the
 * draft in the forms slice; its submit makes the action's call and outcomes run (forms/formSaga.ts), which close the
 * dialog on success. A chunk of its own: RJSF loads only when such a dialog opens. Its uiSchema's `ui:bind` is bound
 * to the screen context as a form screen's is (e.g. a select's choices read from the screen's data).
 */
import { useEffect, useMemo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import type { UiSchema } from '@rjsf/utils';
import { bindUiSchema } from '../forms/bindings.js';
import { useFormModule } from '../forms/formModule.js';
import { formChanged, formReset, formSubmitted, selectForm, type FormsRootState } from '../forms/formState.js';
import { initialDataOf } from '../forms/pathParams.js';
import { ConflictPanel } from '../forms/ConflictPanel.js';
import { SchemaForm } from '../forms/SchemaForm.js';
import type { OpenDialog } from './dialogState.js';
import { screenById } from './navigation.js';

export default function ModalForm({ form, onCancel }: { form: NonNullable<OpenDialog['form']>; onCancel: () => void }): ReactElement {
  const { screenId, actionId, context } = form;
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const action = screenById(screenId).actions![actionId]!;
  const modal = action.form!;
  const formId = `${screenId}/${actionId}`;
  const entry = useSelector((state: FormsRootState) => selectForm(state, formId));
  const module = useFormModule(modal.schema);
  const fields = Object.keys(module?.schema.properties ?? {});
  const initialData = useMemo(() => initialDataOf(modal.initialData, context, fields), [modal.initialData, context, fields.join()]);
  useEffect(() => () => void dispatch(formReset({ formId })), [dispatch, formId]);

  const draft = Object.keys(entry.data).length > 0 ? entry.data : initialData;
  const uiSchema = useMemo(() => bindUiSchema(modal.uiSchema as UiSchema | undefined, { ...context, form: draft }, t), [modal.uiSchema, context, draft, t]);
  return (
    <>
      {entry.conflict && <ConflictPanel formId={formId} conflict={entry.conflict} data={draft} schema={module?.schema} submitting={entry.status === 'submitting'} />}
      <SchemaForm
        schemaName={modal.schema}
        uiSchema={uiSchema}
        formData={draft}
        initialData={initialData}
        submitting={entry.status === 'submitting'}
        submitLabel={modal.submitLabel}
        serverErrors={entry.fieldErrors}
        fieldMessages={entry.fieldMessages}
        idPrefix={`dialog-${actionId}`}
        valueContext={context}
        onChange={(data) => dispatch(formChanged({ formId, data }))}
        onSubmit={(data) => dispatch(formSubmitted({ formId, call: action.call!, context, data, outcomes: action.outcomes, screenId, inDialog: true }))}
        actions={
          <button type="button" className="button" onClick={onCancel}>
            {t(modal.cancelLabel ?? 'common.cancel')}
          </button>
        }
      />
    </>
  );
}
