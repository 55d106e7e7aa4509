/**
 * Every API call is tracked per operation name: pending → fulfilled | rejected, and a rejection
 * keeps its error (SPEC §4, last line). callApi dispatches these; views select them.
 */
import type { UnknownAction } from 'redux';
import type { FieldError } from '../../common/errorCodes.js';
import { actionCreator } from './actions.js';

/**
 * A serialisable copy of the error a call was rejected with (api/http's ApiError has this shape;
 * 'unknown' stands for a failure that was not an ApiError, i.e. a bug).
 */
export interface OperationError {
  kind: 'http' | 'timeout' | 'network' | 'unknown';
  message: string;
  status?: number;
  code?: string;
  fieldErrors?: FieldError[];
  body?: unknown;
}

export type OperationStatus = 'pending' | 'fulfilled' | 'rejected';

export interface OperationEntry {
  status: OperationStatus;
  error?: OperationError;
  /** Of a pending call that reports it: the share of its body sent so far, 0 to 1 (an upload's percentage). */
  uploaded?: number;
}

export type OperationsState = Record<string, OperationEntry>;

export const initialOperationsState: OperationsState = {};

export const OPERATION_PENDING = 'operations/pending';
export const OPERATION_FULFILLED = 'operations/fulfilled';
export const OPERATION_REJECTED = 'operations/rejected';
export const OPERATION_RESET = 'operations/reset';

export const operationPending = actionCreator<{ name: string }, typeof OPERATION_PENDING>(OPERATION_PENDING);
export const operationFulfilled = actionCreator<{ name: string }, typeof OPERATION_FULFILLED>(OPERATION_FULFILLED);
export const operationRejected = actionCreator<{ name: string; error: OperationError }, typeof OPERATION_REJECTED>(
  OPERATION_REJECTED,
);
export const OPERATION_UPLOADED = 'operations/uploaded';
export const operationUploaded = actionCreator<{ name: string; uploaded: number }, typeof OPERATION_UPLOADED>(OPERATION_UPLOADED);
/** Forget an operation (e.g. a form dismisses the error it showed). */
export const operationReset = actionCreator<{ name: string }, typeof OPERATION_RESET>(OPERATION_RESET);

/** Copy only the serialisable fields of an error into the state. */
export function toOperationError(error: OperationError): OperationError {
  const copy: OperationError = { kind: error.kind, message: error.message };
  if (error.status !== undefined) copy.status = error.status;
  if (error.code !== undefined) copy.code = error.code;
  if (error.fieldErrors !== undefined) copy.fieldErrors = error.fieldErrors;
  if (error.body !== undefined) copy.body = error.body;
  return copy;
}

export function operationsReducer(
  state: OperationsState = initialOperationsState,
  action: UnknownAction,
): OperationsState {
  if (operationPending.match(action)) return { ...state, [action.payload.name]: { status: 'pending' } };
  if (operationUploaded.match(action)) {
    const entry = state[action.payload.name];
    return entry?.status === 'pending' ? { ...state, [action.payload.name]: { ...entry, uploaded: action.payload.uploaded } } : state;
  }
  if (operationFulfilled.match(action)) return { ...state, [action.payload.name]: { status: 'fulfilled' } };
  if (operationRejected.match(action)) {
    return { ...state, [action.payload.name]: { status: 'rejected', error: action.payload.error } };
  }
  if (operationReset.match(action)) {
    if (!(action.payload.name in state)) return state;
    const { [action.payload.name]: _removed, ...rest } = state;
    return rest;
  }
  return state;
}

export interface OperationsRootState {
  operations: OperationsState;
}

/** `useSelector(operationStatus('contacts/load'))` → 'pending' | 'fulfilled' | 'rejected' | undefined. */
export const operationStatus =
  (name: string) =>
  (state: OperationsRootState): OperationStatus | undefined =>
    state.operations[name]?.status;

/** `useSelector(isPending('contacts/load'))`. */
export const isPending =
  (name: string) =>
  (state: OperationsRootState): boolean =>
    state.operations[name]?.status === 'pending';

/** How much of a pending upload has been sent (0 to 1), or undefined when the operation reports none. */
export const uploadedShare =
  (name: string) =>
  (state: OperationsRootState): number | undefined =>
    state.operations[name]?.status === 'pending' ? state.operations[name].uploaded : undefined;

/** The error of the last rejection of an operation, or undefined. */
export const operationError =
  (name: string) =>
  (state: OperationsRootState): OperationError | undefined =>
    state.operations[name]?.status === 'rejected' ? state.operations[name].error : undefined;
