/**
 * SPEC §4 Sign-in steps 2–7 at /auth/openid/callback, with the failures of SPEC §8 'Sign-in callback':
 * - missing code, state, nonce or verifier; a state mismatch; a failed code exchange; no idToken; a verification
 *   failure; an organisation-load failure → the callback error page, and a report with code, state, stored state,
 *   stored nonce and the time;
 * - no glopla_id, no matching organisation, or the organisation not persisted within 10 s → /signin with
 *   error_message_key=no_organization_affiliation.
 */
import type { JWTPayload } from 'jose';
import { call, delay, put, takeLeading } from 'redux-saga/effects';
import { CALLBACK_PATH, CLAIM, SIGNIN_ERROR, SIGNIN_ROUTE } from '../../../common/identity.js';
import type { Affiliation, AffiliationsAnswer } from '../../../common/api/answers.js';
import { callApi } from '../../api/callApi.js';
import { currentPathFromContext, navigateTo } from '../../api/context.js';
import { reportError } from '../../api/report.js';
import {
  organizationSelected,
  sessionCleared,
  sessionFromTokenResponse,
  sessionStored,
  type Me,
  type TokenResponse,
} from '../../state/session.js';
import { callbackFailed, callbackOpened, callbackSucceeded, idTokenReceived } from './authState.js';
import { authContext } from './context.js';
import type { PersistedLogin } from './loginStore.js';
import { returnPathAfterSignin } from './signinRequest.js';

/** Step 6: the persisted login is checked every 100 ms for up to 10 s (SPEC §9). */
export const PERSIST_POLL_INTERVAL_MS = 100;
export const PERSIST_POLL_TIMEOUT_MS = 10_000;

export const AFFILIATIONS_OPERATION = 'auth/affiliations';

export const noOrganizationUrl = `${SIGNIN_ROUTE}?error_message_key=${SIGNIN_ERROR.noOrganizationAffiliation}`;

class CallbackFailure extends Error {
  constructor(
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

class NoOrganization extends Error {}

export function* completeSignin({ payload }: ReturnType<typeof callbackOpened>): Generator<unknown, void, unknown> {
  const { identityProvider, loginStore, verificationStorage, origin, now } = yield* authContext();
  const query = new URLSearchParams(payload.search);
  const code = query.get('code');
  const state = query.get('state');
  const stored = verificationStorage.read();
  let sessionWasStored = false;
  try {
    // step 2
    if (!code || !state || !stored?.nonce || !stored.codeVerifier) throw new CallbackFailure('code, state, nonce or verifier is missing');
    if (state !== stored.state) throw new CallbackFailure('state does not match the stored state');
    const { nonce, codeVerifier } = stored;

    // step 3
    let tokens: TokenResponse;
    try {
      tokens = (yield call([identityProvider, identityProvider.exchangeCode], { code, codeVerifier })) as TokenResponse;
    } catch (error) {
      throw new CallbackFailure('the code exchange failed', error);
    }
    if (!tokens.idToken) throw new CallbackFailure('idToken is not found in tokenResponse');
    const idToken = tokens.idToken;
    let claims: JWTPayload;
    try {
      claims = (yield call([identityProvider, identityProvider.decodeIdToken], idToken)) as JWTPayload;
    } catch (error) {
      throw new CallbackFailure('idToken cannot be decoded', error);
    }
    const gloplaId = claims[CLAIM.gloplaId];
    if (typeof gloplaId !== 'string' || gloplaId === '') throw new NoOrganization();

    // step 4
    try {
      yield call([identityProvider, identityProvider.verifyIdToken], idToken, nonce);
    } catch (error) {
      throw new CallbackFailure('idToken verification failed', error);
    }
    const session = sessionFromTokenResponse(tokens);
    yield put(sessionStored(session));
    yield put(idTokenReceived(idToken));
    sessionWasStored = true;

    // step 5
    let affiliations: Affiliation[];
    try {
      const response = (yield call(
        callApi,
        AFFILIATIONS_OPERATION,
        { path: 'admins/me/affiliations', token: tokens.accessToken },
        { handle: () => true },
      )) as AffiliationsAnswer | undefined;
      affiliations = response?.affiliations ?? [];
    } catch (error) {
      throw new CallbackFailure('the organisations could not be loaded', error);
    }
    const chosen = affiliations.find((affiliation) => affiliation.organization?.gloplaId === gloplaId);
    if (!chosen) throw new NoOrganization();
    yield put(
      sessionStored({
        ...session,
        affiliations: affiliations.map(({ role, organization }) => ({ role, organization: { id: organization.id, gloplaId: organization.gloplaId } })),
      }),
    );
    const locale = claims[CLAIM.locale];
    const me: Me = { ...chosen.admin, ...(typeof locale === 'string' ? { language: locale } : {}) };
    const { id, corporationOfficialName } = chosen.organization;
    yield put(organizationSelected({ organization: { id, gloplaId, corporationOfficialName }, me, role: chosen.role }));

    // step 6: the persisted login (written asynchronously, encrypted) must hold the organisation before moving on
    const persisted = (yield call(waitUntilPersisted, () => loginStore.load(), id)) as boolean;
    if (!persisted) throw new NoOrganization();

    // step 7, unless the admin has left the callback page meanwhile (the header's menu works from step 5 on): their
    // choice stands — a 'Log out' pressed now must not be undone before its page has loaded
    const returnPath = returnPathAfterSignin(nonce, origin, now(), verificationStorage.readReturnPath());
    verificationStorage.clear();
    yield put(callbackSucceeded());
    if (yield* stillOnCallbackPage()) yield call(navigateTo, returnPath ?? '/', { replace: true });
  } catch (error) {
    verificationStorage.clear();
    if (sessionWasStored) yield put(sessionCleared());
    if (error instanceof NoOrganization) {
      yield put(callbackSucceeded());
      yield call(navigateTo, noOrganizationUrl, { replace: true });
      return;
    }
    yield put(callbackFailed());
    const failure = error instanceof CallbackFailure ? error : new CallbackFailure('unexpected error', error);
    yield call(reportError, {
      message: `Sign-in callback failed: ${failure.message}`,
      context: {
        code,
        state,
        storedState: stored?.state ?? null,
        storedNonce: stored?.nonce ?? null,
        time: new Date(now()).toISOString(),
        // an Error is sent as {name, message, stack}, every string cut (api/reportSender.ts)
        ...(failure.detail === undefined ? {} : { cause: failure.detail }),
      },
    });
  }
}

function* stillOnCallbackPage(): Generator<unknown, boolean, unknown> {
  const path = yield* currentPathFromContext();
  return path.split(/[?#]/)[0] === CALLBACK_PATH;
}

/** Step 6: true once the persisted login holds the organisation, false after PERSIST_POLL_TIMEOUT_MS. */
export function* waitUntilPersisted(
  load: () => Promise<PersistedLogin | null>,
  organizationId: number,
): Generator<unknown, boolean, unknown> {
  const attempts = Math.ceil(PERSIST_POLL_TIMEOUT_MS / PERSIST_POLL_INTERVAL_MS);
  for (let attempt = 0; attempt <= attempts; attempt += 1) {
    const persisted = (yield call(load)) as PersistedLogin | null;
    if (persisted?.session.organization?.id === organizationId) return true;
    if (attempt < attempts) yield delay(PERSIST_POLL_INTERVAL_MS);
  }
  return false;
}

export function* callbackSaga() {
  // takeLeading: a second mount of the callback page (React StrictMode) must not exchange the code twice
  yield takeLeading(callbackOpened.type, completeSignin);
}
