/**
 * The shared state slices. The app combines them with the features' reducers:
 *
 *   combineReducers({ ...stateReducers, ...noticesReducers, ... })
 *
 * and forks flashSaga in its root saga.
 */
import { flashReducer, type FlashState } from './flash.js';
import { operationsReducer, type OperationsState } from './operations.js';
import { sessionReducer, type SessionState } from './session.js';

export const stateReducers = {
  session: sessionReducer,
  flash: flashReducer,
  operations: operationsReducer,
};

export interface StateRootState {
  session: SessionState;
  flash: FlashState;
  operations: OperationsState;
}

export { flashSaga } from './flash.js';
