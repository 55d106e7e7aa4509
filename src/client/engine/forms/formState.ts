/**
 * State of the forms that screens show: the draft (kept across the input → confirm → done steps), the submission
 * status and the server's field errors. Components dispatch and select; the saga talks to the server.
 */
import type { UnknownAction } from 'redux';
import { actionCreator } from '../../state/actions.js';
import type { FieldError } from '../../../common/errorCodes.js';
import type { CallDefinition, ConflictDefinition, FormDefinition, Outcome } from '../../../common/screens.js';
import type { ScreenContext } from '../screen/values.js';
import type { FieldMessage } from './validationMessages.js';

export type SubmitStatus = 'idle' | 'submitting' | 'checked' | 'succeeded' | 'failed';

export interface FormEntry {
  data: Record<string, unknown>;
  status: SubmitStatus;
  fieldErrors: FieldError[];
  /** Server errors an outcome shows on a field (FormDefinition.outcomes), as locale keys. */
  fieldMessages?: FieldMessage[];
  result?: unknown;
  /** An outcome is taking the admin elsewhere (e.g. a refused request's own page): no leave warning then. */
  released?: boolean;
  /** Fields set before the form had a draft (Outcome.setFields): laid over its initial data. */
  overrides?: Record<string, unknown>;
  /** The write was refused as made on an old version (Outcome.conflict, issue 28): what the form offers then. */
  conflict?: FormConflict;
}

/** A write refused as made on an old version of the record (412): the draft stays, these offer the way on. */
export interface FormConflict {
  /** The refused submission, made again on the latest version by 'Save mine anyway'. */
  submission: FormSubmission;
  /** Who changed the record meanwhile and when, as the error catalogue words it. */
  message: { messageKey: string; params?: Record<string, unknown> };
  /** Where the record is read as it is now. */
  definition: ConflictDefinition;
  /** The record as it is now, once read ('Show the latest'), with its `etag`. */
  latest?: Record<string, unknown>;
}

export type FormsState = Record<string, FormEntry>;

export interface FormSubmission {
  formId: string;
  /** The form's submit call (FormDefinition.submit); the body is `data`. */
  call: CallDefinition;
  /** The screen context its values read (route params, query, navigation state, loaded data…). */
  context: Partial<ScreenContext>;
  data: Record<string, unknown>;
  /** What happens when the call ends (FormDefinition.outcomes). */
  outcomes?: Outcome[];
  /** The path of the form's done step, where an outcome navigating to 'done' goes. */
  donePath?: string;
  /** The screen whose data an outcome reloads. */
  screenId?: string;
  /** The form is an action's form in a dialog: success closes the dialog. */
  inDialog?: boolean;
  /** The payload rule turning the data into the body (FormDefinition.transform). */
  transform?: FormDefinition['transform'];
  /** A check before the confirm step (FormDefinition.check): success goes to `confirmPath`, not done. */
  check?: boolean;
  confirmPath?: string;
}

export const formChanged = actionCreator<{ formId: string; data: Record<string, unknown> }>('forms/changed');
export const formSubmitted = actionCreator<FormSubmission>('forms/submitted');
export const formSucceeded = actionCreator<{ formId: string; result: unknown }>('forms/succeeded');
/** The check before the confirm step passed (FormDefinition.check). */
export const formChecked = actionCreator<{ formId: string; result: unknown }>('forms/checked');
/** Fields of a form set from outside it (Outcome.setFields), e.g. the id of a record a modal form saved. */
export const formFieldsSet = actionCreator<{ formId: string; values: Record<string, unknown> }>('forms/fieldsSet');
export const formFailed = actionCreator<{ formId: string; fieldErrors: FieldError[]; fieldMessages?: FieldMessage[] }>('forms/failed');
export const formReset = actionCreator<{ formId: string }>('forms/reset');
export const formReleased = actionCreator<{ formId: string }>('forms/released');
/** The write was refused as made on an old version: the form shows the conflict (again, with the latest read). */
export const formConflicted = actionCreator<{ formId: string; conflict: FormConflict }>('forms/conflicted');

const EMPTY: FormEntry = { data: {}, status: 'idle', fieldErrors: [] };

function update(state: FormsState, formId: string, change: Partial<FormEntry>): FormsState {
  return { ...state, [formId]: { ...(state[formId] ?? EMPTY), ...change } };
}

export function formsReducer(state: FormsState = {}, action: UnknownAction): FormsState {
  if (formChanged.match(action)) {
    // an edit makes the server's earlier field errors stale, and an earlier check (FormDefinition.check) too
    const checked = state[action.payload.formId]?.status === 'checked';
    return update(state, action.payload.formId, { data: action.payload.data, fieldErrors: [], fieldMessages: [], ...(checked ? { status: 'idle' as const } : {}) });
  }
  if (formSubmitted.match(action)) {
    return update(state, action.payload.formId, { data: action.payload.data, status: 'submitting', fieldErrors: [], fieldMessages: [], conflict: undefined });
  }
  if (formConflicted.match(action)) return update(state, action.payload.formId, { status: 'failed', conflict: action.payload.conflict });
  if (formSucceeded.match(action)) return update(state, action.payload.formId, { status: 'succeeded', result: action.payload.result });
  if (formChecked.match(action)) return update(state, action.payload.formId, { status: 'checked', result: action.payload.result });
  if (formFieldsSet.match(action)) {
    const entry = state[action.payload.formId] ?? EMPTY;
    // without a draft the form shows its initial data: the values are laid over it
    if (Object.keys(entry.data).length === 0) return update(state, action.payload.formId, { overrides: { ...entry.overrides, ...action.payload.values } });
    return update(state, action.payload.formId, { data: { ...entry.data, ...action.payload.values }, fieldErrors: [], fieldMessages: [] });
  }
  if (formFailed.match(action)) {
    const { fieldErrors, fieldMessages = [] } = action.payload;
    return update(state, action.payload.formId, { status: 'failed', fieldErrors, fieldMessages });
  }
  if (formReleased.match(action)) return update(state, action.payload.formId, { released: true });
  if (formReset.match(action)) {
    const { [action.payload.formId]: _removed, ...rest } = state;
    return rest;
  }
  return state;
}

export interface FormsRootState {
  forms: FormsState;
}

export const selectForm = (state: FormsRootState, formId: string): FormEntry => state.forms[formId] ?? EMPTY;
