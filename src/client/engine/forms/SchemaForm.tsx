/** One form from schemas/, rendered by RJSF with the project's templates, widgets and translated messages. */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Form from '@rjsf/core';
import { deepEquals, type UiSchema } from '@rjsf/utils';
import type { FieldError } from '../../../common/errorCodes.js';
import type { WidgetFormContext } from '../../widgets/formContext.js';
import { fields, widgets } from '../../widgets/index.js';
import type { ScreenContext } from '../screen/values.js';
import { Loader } from '../Loader.js';
import { FormPlaceholder } from './FormFrame.js';
import { useFormModule } from './formModule.js';
import { withFieldOrder } from './fieldOrder.js';
import { templates } from './templates.js';
import { hasContextOptions, resolveUiOptions } from './uiOptions.js';
import { makeTransformErrors, serverErrorsToErrorSchema, withFieldMessages, type FieldMessage } from './validationMessages.js';

export type FormData = Record<string, unknown>;

export interface SchemaFormProps {
  schemaName: string;
  uiSchema?: UiSchema;
  formData: FormData;
  /** The data the form started from; with disabledUntilChanged, submit waits for a difference. */
  initialData?: FormData;
  disabledUntilChanged?: boolean;
  submitting: boolean;
  submitLabel: string;
  serverErrors?: FieldError[];
  /** Messages (locale keys) the form shows on fields, e.g. a server error claimed by the screen's `errors`. */
  fieldMessages?: FieldMessage[];
  onChange: (data: FormData) => void;
  onSubmit: (data: FormData) => void;
  /** Extra buttons beside submit (e.g. back). */
  actions?: ReactNode;
  /** Prefix of the fields' ids (default 'root'): several forms on one page need different ones. */
  idPrefix?: string;
  /** Validate from the first render, as after a submit attempt (the screen gallery shows every message this way). */
  validateAtOnce?: boolean;
  /** Locale key prefix of the server's field error messages (FormDefinition.serverMessages). */
  serverMessages?: string;
  /** Runs one of the screen's actions for a widget (WidgetFormContext.runAction). */
  runAction?: (actionId: string, values?: Record<string, unknown>) => void;
  /** Shows a fragment for a widget (WidgetFormContext.renderFragment). */
  renderFragment?: WidgetFormContext['renderFragment'];
  /** The browser's validation refused the data on submit: the paths of the fields in error ('startsOn', 'users.0.email'). */
  onInvalid?: (fields: string[]) => void;
  /** The screen context that '$' values in the uiSchema's ui:options read ('$form.…' reads the form's data). */
  valueContext?: Partial<ScreenContext>;
  /** A screen's form: the fields its placeholder stands for until the form's validators are there (FormFrame.tsx). */
  placeholderRows?: number;
}

/** The field path of an RJSF error's property ('.users.0.email' or '.users[0].email' → 'users.0.email'); '' for the form itself. */
export function fieldPathOf(property: string | undefined): string {
  return (property ?? '').replace(/\[['"]?([^\]'"]+)['"]?\]/g, '.$1').replace(/^\.+/, '');
}

/** Leading and trailing white space is not part of a value (SPEC section 5: values are trimmed). */
export function trimStrings(data: FormData): FormData {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]));
}

export function SchemaForm(props: SchemaFormProps): ReactElement {
  const { t, i18n } = useTranslation();
  const module = useFormModule(props.schemaName);
  const [attempted, setAttempted] = useState(props.validateAtOnce ?? false);
  const idPrefix = props.idPrefix ?? 'root';
  const [blockers, setBlockers] = useState<Record<string, boolean>>({});
  const setSubmitBlocked = useCallback(
    (fieldId: string, blocked: boolean) => setBlockers((current) => (current[fieldId] === blocked ? current : { ...current, [fieldId]: blocked })),
    [],
  );
  // widgets that set other fields (the captcha) merge into the latest data
  const latest = useRef({ formData: props.formData, onChange: props.onChange });
  latest.current = { formData: props.formData, onChange: props.onChange };
  const setFormValues = useCallback((values: Record<string, unknown>) => latest.current.onChange({ ...latest.current.formData, ...values }), []);
  const runAction = useRef(props.runAction);
  runAction.current = props.runAction;
  const renderFragment = useRef(props.renderFragment);
  renderFragment.current = props.renderFragment;
  const formContext = useMemo<WidgetFormContext>(
    () => ({
      setSubmitBlocked,
      setFormValues,
      ...(props.runAction ? { runAction: (actionId: string, values?: Record<string, unknown>) => runAction.current?.(actionId, values) } : {}),
      ...(props.renderFragment ? { renderFragment: (name: string, values: Record<string, unknown>) => renderFragment.current?.(name, values) } : {}),
    }),
    [setSubmitBlocked, setFormValues, props.runAction !== undefined, props.renderFragment !== undefined],
  );
  const transformErrors = useMemo(() => module && makeTransformErrors(module.schema, t), [module, t]);
  const extraErrors = useMemo(
    () => withFieldMessages(serverErrorsToErrorSchema(props.serverErrors ?? [], t, props.serverMessages, (key) => i18n.exists(key)), props.fieldMessages ?? [], t),
    [props.serverErrors, props.fieldMessages, props.serverMessages, t, i18n],
  );
  // RJSF validates only after a change or a submit: a form that shows its messages at once asks for a validation
  const formRef = useRef<Form>(null);
  useEffect(() => {
    if (props.validateAtOnce && module) formRef.current?.validateForm();
  }, [props.validateAtOnce, module]);
  // ui:options values from the screen ('$data.…', '$form.…'); the same uiSchema object while they stay the same
  const dynamicOptions = useMemo(() => hasContextOptions(props.uiSchema), [props.uiSchema]);
  const resolved = dynamicOptions ? resolveUiOptions(props.uiSchema, { ...props.valueContext, form: props.formData }) : props.uiSchema;
  const resolvedJson = dynamicOptions ? JSON.stringify(resolved) : '';
  const uiSchema = useMemo(() => (module ? withFieldOrder(module.schema, resolved, i18n.language) : resolved), [module, props.uiSchema, resolvedJson, i18n.language]);
  if (!module || !transformErrors) return props.placeholderRows ? <FormPlaceholder rows={props.placeholderRows} /> : <Loader />;

  const unchanged = props.disabledUntilChanged && deepEquals(props.formData, props.initialData ?? {});
  const blocked = Object.values(blockers).some(Boolean);
  return (
    <Form
      ref={formRef}
      schema={module.schema}
      validator={module.validator}
      idPrefix={idPrefix}
      uiSchema={uiSchema}
      formData={props.formData}
      templates={templates}
      widgets={widgets}
      fields={fields}
      formContext={formContext}
      transformErrors={transformErrors}
      extraErrors={extraErrors}
      showErrorList="top"
      // a choice starts unchosen: oneOf constants are options, not defaults
      // …and a list with a minimum starts empty, not with empty items (a required choice then says so, not 'must be integer')
      experimental_defaultFormStateBehavior={{ constAsDefaults: 'never', arrayMinItems: { populate: 'never' } }}
      noHtml5Validate
      focusOnFirstError={!props.validateAtOnce}
      liveValidate={attempted ? 'onChange' : undefined}
      onChange={({ formData }) => props.onChange(formData ?? {})}
      onBlur={(id, value) => {
        const field = id.startsWith(`${idPrefix}_`) ? id.slice(idPrefix.length + 1) : id;
        if (typeof value === 'string' && value !== value.trim() && field in props.formData) {
          props.onChange({ ...props.formData, [field]: value.trim() });
        }
      }}
      onError={(errors) => {
        setAttempted(true);
        props.onInvalid?.(errors.map((error) => fieldPathOf(error.property)).filter((path) => path !== ''));
      }}
      onSubmit={({ formData }) => props.onSubmit(trimStrings(formData ?? {}))}
    >
      <div className="form__actions">
        {props.actions}
        <button type="submit" className="button button--primary" disabled={props.submitting || unchanged || blocked}>
          {props.submitting ? t('common.submitting') : t(props.submitLabel)}
        </button>
      </div>
    </Form>
  );
}
