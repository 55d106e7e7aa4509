/**
 * The form of Register Account and of the password-reset request (SPEC 2.4, 2.5): the screen's form (schema,
 * uiSchema with the Captcha widget, submit label and call) with the request and attention texts above it. The submit
 * button is enabled again after a refusal; the outcomes are the sagas' (sagas.ts).
 */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import type { UiSchema } from '@rjsf/utils';
import type { ScreenDefinition } from '../../../common/screens.js';
import { formChanged, formReset, selectForm, type FormsRootState } from '../../engine/forms/formState.js';
import { SchemaForm } from '../../engine/forms/SchemaForm.js';
import { mailRequested, selectMailRequest, tokenPageLeft, type TokenFlow } from './state.js';

export interface MailRequestFormProps {
  screen: ScreenDefinition;
  flow: TokenFlow;
  /** E.g. the e-mail address from the `email` query parameter. */
  initialData?: Record<string, unknown>;
}

export function MailRequestForm({ screen, flow, initialData = {} }: MailRequestFormProps): ReactElement {
  const form = screen.form!;
  const { t, i18n } = useTranslation();
  const dispatch = useDispatch();
  const entry = useSelector((state: FormsRootState) => selectForm(state, screen.id));
  const request = useSelector(selectMailRequest(flow));
  const formData = Object.keys(entry.data).length > 0 ? entry.data : initialData;

  useEffect(
    () => () => {
      dispatch(formReset({ formId: screen.id }));
      dispatch(tokenPageLeft({ flow }));
    },
    [dispatch, screen.id, flow],
  );

  return (
    <section className="token-request">
      <p className="token-request__request">{t(`${flow}.start.request`)}</p>
      <p className="token-request__attention attention">{t(`${flow}.start.attention`)}</p>
      <SchemaForm
        schemaName={form.schema}
        uiSchema={form.uiSchema as UiSchema | undefined}
        formData={formData}
        initialData={initialData}
        submitting={request.status === 'submitting'}
        submitLabel={form.submit.label}
        serverErrors={request.fieldErrors}
        fieldMessages={request.fieldMessages}
        onChange={(data) => dispatch(formChanged({ formId: screen.id, data }))}
        onSubmit={(data) =>
          dispatch(mailRequested({ flow, formId: screen.id, submit: form.submit, data, language: i18n.language }))
        }
      />
    </section>
  );
}
