/**
 * The components of the activation and reset pages, a public entry of its own: the screens load them lazily, while
 * the app imports index.ts (state and sagas) into the first bundle.
 */
export { MailRequestForm } from './MailRequestForm.js';
export { TokenForm } from './TokenForm.js';
