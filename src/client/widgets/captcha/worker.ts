/**
 * The captcha's proof-of-work worker: ALTCHA's prebuilt PBKDF2/SHA worker script, bundled by webpack as a worker
 * chunk of its own and so served from this origin (the Content-Security-Policy allows workers from 'self' only).
 */
import 'altcha/workers/pbkdf2';
