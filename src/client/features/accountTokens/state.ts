/**
 * Activation and password reset in the browser (SPEC 2.4, 2.5, §8 'Activation and reset'): the state of the two mail
 * requests, of the token check on the pages the mailed links open, and of the form sent with the token. The form data
 * itself lives in the form engine's slice (formChanged/selectForm), keyed by the screen id.
 */
import type { UnknownAction } from 'redux';
import type { FieldError } from '../../../common/errorCodes.js';
import { formChanged } from '../../engine/forms/formState.js';
import type { FieldMessage } from '../../engine/forms/validationMessages.js';
import { actionCreator } from '../../state/actions.js';

/** The two flows; 'passwordReset' is also the `flow` and `from` of the link-expired page's navigation state. */
export type TokenFlow = 'activation' | 'passwordReset';

export const ACTIVATION_START_PATH = '/activation/start';
export const ACTIVATION_SUCCESS_PATH = '/activation/success';
export const ACTIVATION_ALREADY_COMPLETED_PATH = '/activation/already-completed';
export const PASSWORD_RESET_START_PATH = '/password/reset/start';
export const PASSWORD_RESET_SUCCESS_PATH = '/password/reset/success';
export const TOKEN_SENT_PATH = '/token/sent';
export const TOKEN_EXPIRED_PATH = '/token/expired';

/** SPEC §7: the headers that carry the mailed token. */
export const TOKEN_HEADER: Record<TokenFlow, string> = {
  activation: 'x-v2-admin-activate-token',
  passwordReset: 'x-v2-admin-reset-password-token',
};

/** SPEC §7: the token checks. */
export const TOKEN_CHECK_PATH: Record<TokenFlow, string> = {
  activation: 'admin/validate_confirm_email_token',
  passwordReset: 'admin/validate_reset_password_token',
};

/** Success pages go to sign-in after this long (SPEC 2.4, 2.5, §9). */
export const SUCCESS_REDIRECT_MS = 2000;
/** The already-completed page goes to sign-in after this long (SPEC 2.4 leaves the value open: our choice). */
export const ALREADY_COMPLETED_REDIRECT_MS = 3000;

export { CAPTCHA_FIELDS } from '../../widgets/ids.js';
/** The field that shows 'Please complete the puzzle.' after a 401 (SPEC §8). */
export const CAPTCHA_ANSWER_FIELD = 'capyAnswer';

/** Navigation state of /token/sent and /token/expired (SPEC 2.4). */
export interface TokenPageState {
  flow?: TokenFlow;
  from?: TokenFlow;
  errorCode?: string;
}

/** The admin a confirmed token belongs to (what the token check answers). */
export interface TokenAdmin {
  id: number;
  email?: string;
  firstName?: string;
  lastName?: string;
  kanaFirstName?: string;
  kanaLastName?: string;
}

export type SubmitStatus = 'idle' | 'submitting' | 'failed' | 'succeeded';

export interface FormStatus {
  status: SubmitStatus;
  fieldErrors: FieldError[];
  fieldMessages: FieldMessage[];
}

export interface TokenCheck {
  status: 'idle' | 'checking' | 'valid' | 'failed';
  /** The token checked (a new link on the same page checks again). */
  token?: string;
  admin?: TokenAdmin;
}

export interface AccountTokensState {
  mailRequest: Record<TokenFlow, FormStatus>;
  tokenCheck: Record<TokenFlow, TokenCheck>;
  tokenForm: Record<TokenFlow, FormStatus>;
}

const IDLE_FORM: FormStatus = { status: 'idle', fieldErrors: [], fieldMessages: [] };

export const initialAccountTokensState: AccountTokensState = {
  mailRequest: { activation: IDLE_FORM, passwordReset: IDLE_FORM },
  tokenCheck: { activation: { status: 'idle' }, passwordReset: { status: 'idle' } },
  tokenForm: { activation: IDLE_FORM, passwordReset: IDLE_FORM },
};

/** A screen's submit entry (screens/*.json form.submit): the call it makes. */
export interface SubmitCall {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
}

/** Register Account or the reset request was submitted. */
export const mailRequested = actionCreator<{
  flow: TokenFlow;
  formId: string;
  submit: SubmitCall;
  data: Record<string, unknown>;
  /** The page language: the mail's language (`lang` query parameter). */
  language: string;
}>('accountTokens/mailRequested');
export const mailRequestSucceeded = actionCreator<{ flow: TokenFlow }>('accountTokens/mailRequestSucceeded');
export const mailRequestFailed = actionCreator<{ flow: TokenFlow; fieldErrors?: FieldError[]; fieldMessages?: FieldMessage[] }>(
  'accountTokens/mailRequestFailed',
);

/** A page opened by a mailed link confirms its token. */
export const tokenCheckRequested = actionCreator<{ flow: TokenFlow; token: string }>('accountTokens/tokenCheckRequested');
export const tokenChecked = actionCreator<{ flow: TokenFlow; token: string; admin: TokenAdmin }>('accountTokens/tokenChecked');
export const tokenCheckFailed = actionCreator<{ flow: TokenFlow }>('accountTokens/tokenCheckFailed');

/** The activate or new-password form was submitted with the token. */
export const tokenFormSubmitted = actionCreator<{
  flow: TokenFlow;
  formId: string;
  submit: SubmitCall;
  adminId: string;
  token: string;
  data: Record<string, unknown>;
}>('accountTokens/tokenFormSubmitted');
export const tokenFormSucceeded = actionCreator<{ flow: TokenFlow }>('accountTokens/tokenFormSucceeded');
export const tokenFormFailed = actionCreator<{ flow: TokenFlow; fieldErrors?: FieldError[] }>('accountTokens/tokenFormFailed');

/** A page of the flow was left: its state starts over next time. */
export const tokenPageLeft = actionCreator<{ flow: TokenFlow }>('accountTokens/pageLeft');

/** A done page shows its message, then goes to sign-in after `delayMs` (cancelled when the page is left first). */
export const signInScheduled = actionCreator<{ delayMs: number }>('accountTokens/signInScheduled');
export const signInScheduleCancelled = actionCreator<void>('accountTokens/signInScheduleCancelled');

function withFlow<K extends keyof AccountTokensState>(
  state: AccountTokensState,
  key: K,
  flow: TokenFlow,
  value: AccountTokensState[K][TokenFlow],
): AccountTokensState {
  return { ...state, [key]: { ...state[key], [flow]: value } };
}

export function accountTokensReducer(state: AccountTokensState = initialAccountTokensState, action: UnknownAction): AccountTokensState {
  if (mailRequested.match(action)) return withFlow(state, 'mailRequest', action.payload.flow, { ...IDLE_FORM, status: 'submitting' });
  if (mailRequestSucceeded.match(action)) return withFlow(state, 'mailRequest', action.payload.flow, { ...IDLE_FORM, status: 'succeeded' });
  if (mailRequestFailed.match(action)) {
    const { flow, fieldErrors = [], fieldMessages = [] } = action.payload;
    return withFlow(state, 'mailRequest', flow, { status: 'failed', fieldErrors, fieldMessages });
  }
  if (tokenCheckRequested.match(action)) {
    return withFlow(state, 'tokenCheck', action.payload.flow, { status: 'checking', token: action.payload.token });
  }
  if (tokenChecked.match(action)) {
    const { flow, token, admin } = action.payload;
    return withFlow(state, 'tokenCheck', flow, { status: 'valid', token, admin });
  }
  if (tokenCheckFailed.match(action)) {
    return withFlow(state, 'tokenCheck', action.payload.flow, { ...state.tokenCheck[action.payload.flow], status: 'failed' });
  }
  if (tokenFormSubmitted.match(action)) return withFlow(state, 'tokenForm', action.payload.flow, { ...IDLE_FORM, status: 'submitting' });
  if (tokenFormSucceeded.match(action)) return withFlow(state, 'tokenForm', action.payload.flow, { ...IDLE_FORM, status: 'succeeded' });
  if (tokenFormFailed.match(action)) {
    return withFlow(state, 'tokenForm', action.payload.flow, { status: 'failed', fieldErrors: action.payload.fieldErrors ?? [], fieldMessages: [] });
  }
  if (formChanged.match(action)) {
    // an edit (or the solved captcha) makes the messages of the last refusal stale; the status stays
    const fresh = (form: FormStatus): FormStatus => (form.fieldErrors.length || form.fieldMessages.length ? { ...form, fieldErrors: [], fieldMessages: [] } : form);
    const clear = (forms: Record<TokenFlow, FormStatus>) => {
      const activation = fresh(forms.activation);
      const passwordReset = fresh(forms.passwordReset);
      return activation === forms.activation && passwordReset === forms.passwordReset ? forms : { activation, passwordReset };
    };
    const mailRequest = clear(state.mailRequest);
    const tokenForm = clear(state.tokenForm);
    return mailRequest === state.mailRequest && tokenForm === state.tokenForm ? state : { ...state, mailRequest, tokenForm };
  }
  if (tokenPageLeft.match(action)) {
    const { flow } = action.payload;
    return {
      mailRequest: { ...state.mailRequest, [flow]: IDLE_FORM },
      tokenCheck: { ...state.tokenCheck, [flow]: { status: 'idle' } },
      tokenForm: { ...state.tokenForm, [flow]: IDLE_FORM },
    };
  }
  return state;
}

export interface AccountTokensRootState {
  accountTokens: AccountTokensState;
}

export const accountTokensReducers = { accountTokens: accountTokensReducer };

export const selectMailRequest = (flow: TokenFlow) => (state: AccountTokensRootState): FormStatus => state.accountTokens.mailRequest[flow];
export const selectTokenCheck = (flow: TokenFlow) => (state: AccountTokensRootState): TokenCheck => state.accountTokens.tokenCheck[flow];
export const selectTokenForm = (flow: TokenFlow) => (state: AccountTokensRootState): FormStatus => state.accountTokens.tokenForm[flow];
