/**
 * The pages a mailed link opens (SPEC 2.4 Activate, 2.5 Set new password): a loader while the token is confirmed,
 * then the texts and the screen's form, sent with the token. A refused token leads to /token/expired (sagas.ts).
 */
import { useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import type { UiSchema } from '@rjsf/utils';
import type { ScreenDefinition } from '../../../common/screens.js';
import { formChanged, formReset, selectForm, type FormsRootState } from '../../engine/forms/formState.js';
import { Loader } from '../../engine/Loader.js';
import { SchemaForm } from '../../engine/forms/SchemaForm.js';
import { selectTokenCheck, selectTokenForm, tokenCheckRequested, tokenFormSubmitted, tokenPageLeft, type TokenAdmin, type TokenFlow } from './state.js';

export interface TokenFormProps {
  screen: ScreenDefinition;
  flow: TokenFlow;
  adminId: string;
  token: string;
  /** The form's first data from the confirmed admin (e.g. the names an invitation already holds). */
  initialDataFrom?: (admin: TokenAdmin) => Record<string, unknown>;
  /** Submit waits for a change of the data (SPEC 2.4: 'the form has been changed'). */
  disabledUntilChanged?: boolean;
  /** Texts above the form, once the token is confirmed. */
  intro: (admin: TokenAdmin) => ReactNode;
  /** Beside the submit button (e.g. the terms link). */
  actions?: ReactNode;
}

export function TokenForm(props: TokenFormProps): ReactElement {
  const { screen, flow, adminId, token } = props;
  const form = screen.form!;
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const check = useSelector(selectTokenCheck(flow));
  const submission = useSelector(selectTokenForm(flow));
  const entry = useSelector((state: FormsRootState) => selectForm(state, screen.id));
  const admin = check.status === 'valid' && check.token === token ? check.admin : undefined;
  const { initialDataFrom } = props;
  const initialData = useMemo(() => (admin && initialDataFrom ? initialDataFrom(admin) : {}), [admin, initialDataFrom]);

  useEffect(() => {
    dispatch(tokenCheckRequested({ flow, token }));
  }, [dispatch, flow, token]);
  useEffect(
    () => () => {
      dispatch(formReset({ formId: screen.id }));
      dispatch(tokenPageLeft({ flow }));
    },
    [dispatch, screen.id, flow],
  );

  if (check.status === 'failed' && check.token === token) {
    return (
      <section className="token-form token-form--failed">
        <p className="error-text">{t(`${flow === 'activation' ? 'activation.activate' : 'passwordReset.reset'}.checkFailed`)}</p>
        <button type="button" className="button" onClick={() => dispatch(tokenCheckRequested({ flow, token }))}>
          {t(`${flow === 'activation' ? 'activation.activate' : 'passwordReset.reset'}.retry`)}
        </button>
      </section>
    );
  }
  if (!admin) return <Loader />;

  const formData = Object.keys(entry.data).length > 0 ? entry.data : initialData;
  return (
    <section className="token-form">
      {props.intro(admin)}
      <SchemaForm
        schemaName={form.schema}
        uiSchema={form.uiSchema as UiSchema | undefined}
        formData={formData}
        initialData={initialData}
        disabledUntilChanged={props.disabledUntilChanged}
        submitting={submission.status === 'submitting' || submission.status === 'succeeded'}
        submitLabel={form.submit.label}
        serverErrors={submission.fieldErrors}
        onChange={(data) => dispatch(formChanged({ formId: screen.id, data }))}
        onSubmit={(data) => dispatch(tokenFormSubmitted({ flow, formId: screen.id, submit: form.submit, adminId, token, data }))}
        actions={props.actions}
      />
    </section>
  );
}
