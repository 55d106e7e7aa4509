/** The password-strength score in a worker thread of api/passwordStrength.ts's pool: piscina calls the default export. */
export { estimateScore as default } from '../../common/passwordStrength.js';
