import { actionCreator } from './actions.js';

/** Dispatched once by the app's bootstrap after the store and router exist; features load start-up data on it. */
export const APP_STARTED = 'app/started';
export const appStarted = actionCreator<void, typeof APP_STARTED>(APP_STARTED);
