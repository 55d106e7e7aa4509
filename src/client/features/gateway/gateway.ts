/**
 * The single-sign-on gateway, /auth/gateway (SPEC 2.3, §7 Single-sign-on forwarding, §8 Gateway). Its route is open to
 * everyone (access `unguarded`: SPEC 2.1 calls it public, but it needs a signed-in admin to ask for tokens), and this
 * saga decides:
 * - glo=true without gpc: top, nothing ended (issue 15 finding 6: a link from any site must not end sessions);
 * - glo=true, signed in: GET admin/single-sign-on/check with the same query first — a refusal is handled as the tokens
 *   call's is, and nothing is ended; then keep the gateway's query without glo (sessionStorage), sign out through
 *   the provider, which comes back to /auth/gateway; that visit resumes the kept query and, signed out, goes on to
 *   sign in;
 * - glo=true, signed out: sign in with prompt=login (the provider asks for the password whatever session it holds),
 *   returning to the gateway without glo (nothing to end here; the tokens call refuses an unknown gpc afterwards);
 * - signed out: /signin with returnTo the gateway URL, which brings the admin back here after signing in;
 * - signed in: GET admin/single-sign-on?gpc=&gss=&gul= (gul ja|en, default ja) and a full-page navigation to authUrl
 *   with guq, gss, gui, gsg, ghs, gul and goi (the session organisation's gloplaId); for productId 4 also projectId
 *   and projectCode, read once from localStorage and removed. 403 → flash 'Forbidden' and top; any other failure →
 *   the general handling (callApi's error catalogue) and top.
 */
import { call, put, select, takeLatest } from 'redux-saga/effects';
import type { SingleSignOnAnswer } from '../../../common/api/answers.js';
import { isLanguage } from '../../../common/languages.js';
import { FORWARDED_TOKEN_FIELDS, GATEWAY_PATH, GATEWAY_QUERY, ORGANIZATION_PARAM, PROJECT_FIELDS, PROJECT_PRODUCT_ID } from '../../../common/singleSignOn.js';
import { callApi } from '../../api/callApi.js';
import { navigateTo } from '../../api/context.js';
import type { ApiError } from '../../api/http.js';
import { actionCreator } from '../../state/actions.js';
import { SIGNIN_PATH } from '../../state/constants.js';
import { flash } from '../../state/flash.js';
import { hasSession, selectOrganization, type LoginOrganization } from '../../state/session.js';
import { authContext, logoutRequested } from '../auth/index.js';

/** The gateway page was opened (or its query changed). */
export const gatewayOpened = actionCreator<{ search: string }, 'gateway/opened'>('gateway/opened');

/** sessionStorage key of the gateway query kept across the sign-out of glo=true. */
export const RESUME_STORAGE_KEY = 'gateway.resume';
export const TOP = '/';
export const TOKENS_OPERATION = 'gateway/tokens';
export const CHECK_OPERATION = 'gateway/check';

export interface GatewayRequest {
  gpc: string | null;
  gss: string;
  /** ja or en; anything else is left out, so the server's default (ja) applies. */
  gul: string | undefined;
  signOutFirst: boolean;
}

/** Pure: what a gateway query asks for. */
export function gatewayRequest(search: string): GatewayRequest {
  const query = new URLSearchParams(search);
  const gul = query.get(GATEWAY_QUERY.language);
  return {
    gpc: query.get(GATEWAY_QUERY.productCode) || null,
    gss: query.get(GATEWAY_QUERY.state) ?? '',
    gul: isLanguage(gul) ? gul : undefined,
    signOutFirst: query.get(GATEWAY_QUERY.signOutFirst) === 'true',
  };
}

/** Pure: the gateway path with the same query but without glo. */
export function gatewayPathWithoutSignOut(search: string): string {
  const query = new URLSearchParams(search);
  query.delete(GATEWAY_QUERY.signOutFirst);
  const rest = query.toString();
  return rest ? `${GATEWAY_PATH}?${rest}` : GATEWAY_PATH;
}

/** Pure: the partner URL: authUrl plus the tokens, goi and (product 4) the project. */
export function partnerUrl(answer: SingleSignOnAnswer, gloplaId: string, project: Partial<Record<(typeof PROJECT_FIELDS)[number], string>> = {}): string {
  const url = new URL(answer.authUrl);
  for (const field of FORWARDED_TOKEN_FIELDS) url.searchParams.set(field, answer[field]);
  url.searchParams.set(ORGANIZATION_PARAM, gloplaId);
  if (answer.productId === PROJECT_PRODUCT_ID) {
    for (const field of PROJECT_FIELDS) {
      const value = project[field];
      if (value !== undefined) url.searchParams.set(field, value);
    }
  }
  return url.toString();
}

/** projectId and projectCode from localStorage, removed as they are read (SPEC §7: read once). */
export function takeProject(storage: Storage | undefined = globalThis.localStorage): Partial<Record<(typeof PROJECT_FIELDS)[number], string>> {
  const project: Partial<Record<(typeof PROJECT_FIELDS)[number], string>> = {};
  for (const field of PROJECT_FIELDS) {
    const value = storage?.getItem(field);
    storage?.removeItem(field);
    if (value !== null && value !== undefined) project[field] = value;
  }
  return project;
}

function keepForAfterSignOut(path: string, storage: Storage | undefined = globalThis.sessionStorage): void {
  storage?.setItem(RESUME_STORAGE_KEY, path);
}

/** The kept gateway path, once. */
function takeKept(storage: Storage | undefined = globalThis.sessionStorage): string | null {
  const path = storage?.getItem(RESUME_STORAGE_KEY) ?? null;
  storage?.removeItem(RESUME_STORAGE_KEY);
  return path && path.startsWith(`${GATEWAY_PATH}?`) ? path : null;
}

const signinUrl = (returnTo: string, prompt?: string) => `${SIGNIN_PATH}?${prompt ? `prompt=${prompt}&` : ''}returnTo=${encodeURIComponent(returnTo)}`;

/** A refused gateway call: 403 → the Forbidden flash; the rest was handled by callApi. Then top. */
function* refused(error: unknown): Generator<unknown, void, unknown> {
  if ((error as Partial<ApiError>).status === 403) yield put(flash.error('errors.forbidden'));
  yield call(navigateTo, TOP, { replace: true });
}

const tokensQuery = (request: GatewayRequest) => ({ gpc: request.gpc, gss: request.gss, gul: request.gul });

export function* openGateway({ payload: { search } }: ReturnType<typeof gatewayOpened>): Generator<unknown, void, unknown> {
  const request = gatewayRequest(search);
  const signedIn = (yield select(hasSession)) as boolean;

  if (request.signOutFirst) {
    if (!request.gpc) {
      yield call(navigateTo, TOP, { replace: true });
      return;
    }
    const back = gatewayPathWithoutSignOut(search);
    if (signedIn) {
      try {
        yield* callApi(CHECK_OPERATION, { path: 'admin/single-sign-on/check', query: tokensQuery(request) }, { handle: (error: ApiError) => error.status === 403 });
      } catch (error) {
        yield* refused(error);
        return;
      }
      yield call(keepForAfterSignOut, back);
      yield put(logoutRequested({ postLogoutPath: GATEWAY_PATH }));
    } else {
      yield call(navigateTo, signinUrl(back, 'login'), { replace: true });
    }
    return;
  }
  if (!request.gpc) {
    // back from the sign-out of glo=true (the provider's post-logout redirect has no query), or a bare visit
    const kept = (yield call(takeKept)) as string | null;
    yield call(navigateTo, kept ?? TOP, { replace: true });
    return;
  }
  if (!signedIn) {
    yield call(navigateTo, signinUrl(`${GATEWAY_PATH}${search}`), { replace: true });
    return;
  }

  const organization = (yield select(selectOrganization)) as LoginOrganization | null;
  let answer: SingleSignOnAnswer;
  try {
    answer = yield* callApi<SingleSignOnAnswer>(
      TOKENS_OPERATION,
      { path: 'admin/single-sign-on', query: tokensQuery(request) },
      { handle: (error: ApiError) => error.status === 403 },
    );
  } catch (error) {
    yield* refused(error);
    return;
  }
  const project = answer.productId === PROJECT_PRODUCT_ID ? ((yield call(takeProject)) as ReturnType<typeof takeProject>) : {};
  const { assignLocation } = yield* authContext();
  yield call(assignLocation, partnerUrl(answer, organization?.gloplaId ?? '', project));
}

export function* gatewaySaga() {
  yield takeLatest(gatewayOpened.type, openGateway);
}
