/**
 * A tiny typed action-creator helper for plain redux (no toolkit).
 *
 *   export const SESSION_CLEARED = 'session/cleared';
 *   export const sessionCleared = actionCreator<void>(SESSION_CLEARED);
 *   sessionCleared();                 // {type: 'session/cleared', payload: undefined}
 *   sessionCleared.type;              // 'session/cleared' (for take/takeEvery)
 *   if (sessionCleared.match(action)) // narrows action.payload
 */
// A type alias, not an interface: only aliases are assignable to redux's UnknownAction (index signature),
// which store.dispatch and the reducers take.
export type PayloadAction<P, T extends string = string> = {
  type: T;
  payload: P;
};

export interface ActionCreatorWithPayload<P, T extends string> {
  (payload: P): PayloadAction<P, T>;
  type: T;
  match(action: { type: unknown }): action is PayloadAction<P, T>;
}

export function actionCreator<P = void, T extends string = string>(type: T): ActionCreatorWithPayload<P, T> {
  const create = (payload: P): PayloadAction<P, T> => ({ type, payload });
  return Object.assign(create, {
    type,
    match: (action: { type: unknown }): action is PayloadAction<P, T> => action.type === type,
  });
}
