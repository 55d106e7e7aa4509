/** The sign-in callback page's saga (it exchanges the code): loaded and started with that page, not in the first load. */
export { callbackSaga } from './callbackSaga.js';
