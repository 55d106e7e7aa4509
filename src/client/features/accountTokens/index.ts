/** Activation and password reset (SPEC 2.4, 2.5, §8 'Activation and reset'): mail requests, token checks, token forms. */
export * from './state.js';
export { accountTokensSaga, expiredPageState } from './sagas.js';
