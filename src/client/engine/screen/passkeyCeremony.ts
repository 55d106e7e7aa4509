/**
 * A passkey's registration before its call (CallDefinition.passkey, issue 29), loaded when a passkey is first added:
 * the options from the server, then the device through the browser's WebAuthn (@simplewebauthn/browser).
 */
import { call, put } from 'redux-saga/effects';
import { flashShown } from '../../state/flash.js';
import type { CallResult } from './callRequest.js';

/** The browser's part: the device makes the credential of the options (JSON text in, out). */
async function createPasskey(optionsText: string): Promise<string> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return JSON.stringify(await startRegistration({ optionsJSON: JSON.parse(optionsText) }));
}

/**
 * The device's credential for the options (the answer of the call calls.ts makes of `register`). A refused options
 * call ends here as that call's failure; a ceremony the person cancels (or a device that fails) flashes
 * errors.passkeyFailed and ends the call as nothing was written (a form stays open to try again).
 */
export function* passkeyRegistration(
  options: CallResult,
): Generator<unknown, { ok: true; credential: string } | { ok: false; result: CallResult }, unknown> {
  if (!options.ok) return { ok: false, result: options };
  try {
    const credential = (yield call(createPasskey, String((options.body as { options?: unknown } | undefined)?.options))) as string;
    return { ok: true, credential };
  } catch (error) {
    yield put(flashShown({ kind: 'error', messageKey: 'errors.passkeyFailed' }));
    return { ok: false, result: { ok: false, error } };
  }
}
