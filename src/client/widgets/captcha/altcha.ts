/**
 * ALTCHA's widget, loaded as a chunk of its own when a captcha field first appears. The `altcha/external` build keeps
 * styles and workers out of the script, so the page's strict Content-Security-Policy holds: no inline script or
 * style, no eval; its stylesheet is in the page's (app/main.tsx) and the proof-of-work runs in a worker
 * chunk of this origin (./worker.ts). The widget's words come from locales/<lang>/captcha.json (`captcha.widget`).
 */
import 'altcha/external';

export const CAPTCHA_ALGORITHMS = ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512'] as const;

const createWorker = () => new Worker(/* webpackChunkName: "captcha-worker" */ new URL('./worker.js', import.meta.url));
for (const algorithm of CAPTCHA_ALGORITHMS) globalThis.$altcha.algorithms.set(algorithm, createWorker);

/** Gives the widget its words in `language` (a string per key of ALTCHA's translation table). */
export function setWidgetStrings(language: string, strings: Record<string, string>): void {
  globalThis.$altcha.i18n.set(language, strings);
}
