/**
 * Drives the embedded identity provider over HTTP (app.inject) the way the portal's browser side does: the
 * authorisation request with PKCE S256, the sign-in form, the organisation choice, the callback and the token calls.
 *
 *   const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
 *   session.tokens.access_token …
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { CALLBACK_PATH, ISSUER_PATH, PORTAL_CLIENT_ID, SCOPES, type TokenEndpointResponse } from '../../../src/common/identity.js';

/** Enough of a browser's cookie store for one origin (paths and expiry of deletions are honoured). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: LightMyRequestResponse): void {
    const header = response.headers['set-cookie'];
    const lines = Array.isArray(header) ? header : header ? [header] : [];
    for (const line of lines) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key, raw] = attribute.trim().split('=');
        if (key?.toLowerCase() === 'max-age') return Number(raw) <= 0;
        if (key?.toLowerCase() === 'expires') return Date.parse(raw ?? '') < Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }
}

/** path + query of a Location header (absolute or relative). */
export function pathOf(location: string | undefined): string {
  if (!location) throw new Error('no Location header');
  const url = new URL(location, 'http://localhost');
  return `${url.pathname}${url.search}`;
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizationOptions {
  gloplaId?: string;
  prompt?: string;
  errorMessageKey?: string;
  uiLocales?: string;
  state?: string;
  nonce?: string;
  /** acr_values: the authentication context classes asked for (issue 29). */
  acrValues?: string;
}

export class Browser {
  constructor(
    readonly app: FastifyInstance,
    readonly jar = new CookieJar(),
    /** The client address the requests come from (request.ip); default light-my-request's 127.0.0.1. */
    readonly remoteAddress?: string,
    /** Headers every request sends (X-Forwarded-For, …). */
    readonly headers: Record<string, string> = {},
  ) {}

  /** The same cookies against another instance of the app. */
  withApp(app: FastifyInstance): Browser {
    return new Browser(app, this.jar, this.remoteAddress, this.headers);
  }

  async request(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method,
      url,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      headers: {
        ...this.headers,
        cookie: this.jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    this.jar.store(response);
    return response;
  }

  get(url: string) {
    return this.request('GET', url);
  }

  post(url: string, form: Record<string, string>) {
    return this.request('POST', url, form);
  }

  /** Follows 3xx answers inside the app; stops at a page or at the portal's callback/sign-in routes. */
  async follow(response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    let current = response;
    for (let hops = 0; hops < 10 && current.statusCode >= 300 && current.statusCode < 400; hops += 1) {
      const location = pathOf(current.headers.location as string);
      if (!location.startsWith('/oidc/')) return current;
      current = await this.get(location);
    }
    return current;
  }
}

/** The authorisation URL the browser side builds (signinRequest.ts). */
export function authorizationPath(publicUrl: string, challenge: string, options: AuthorizationOptions = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: PORTAL_CLIENT_ID,
    redirect_uri: `${publicUrl}${CALLBACK_PATH}`,
    scope: SCOPES,
    state: options.state ?? randomBytes(16).toString('hex'),
    nonce: options.nonce ?? randomBytes(16).toString('hex'),
    type: 'admin',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  if (options.uiLocales) query.set('ui_locales', options.uiLocales);
  if (options.prompt) query.set('prompt', options.prompt);
  if (options.errorMessageKey) query.set('error_message_key', options.errorMessageKey);
  if (options.gloplaId) query.set('glopla_id', options.gloplaId);
  if (options.acrValues) query.set('acr_values', options.acrValues);
  return `/oidc/auth?${query}`;
}

/** The interaction form's action (POST target) in an HTML page: the page's first form but a passkey's (its script posts that one). */
export function formAction(html: string): string {
  const actions = [...html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
  const action = actions.find((candidate) => !/\/passkey(\?|$)/.test(candidate));
  if (!action) throw new Error(`no form in page:\n${html.slice(0, 500)}`);
  return action;
}

/** The organisations offered on the choice page: [value, label]. */
export function organizationButtons(html: string): Array<{ id: string; label: string }> {
  return [...html.matchAll(/<button[^>]*name="organization_id" value="(\d+)"[^>]*>([^<]*)<\/button>/g)].map((match) => ({ id: match[1]!, label: match[2]! }));
}

export interface SignInOptions extends AuthorizationOptions {
  email: string;
  password: string;
  /** gloplaId to pick on the choice page, if it is shown. */
  choose?: string;
  /** The second step's code (issue 29), asked for when the page comes: a code of the app or a recovery code. */
  code?: () => string;
  browser?: Browser;
}

export interface SignInResult {
  browser: Browser;
  pkce: Pkce;
  /** The final redirect to the portal (callback with code and state, or /signin with error_message_key). */
  redirect: URL;
  /** Whether the organisation choice page was shown. */
  choiceShown: boolean;
  /** HTML of the last provider page seen (the sign-in page when the password was refused). */
  lastPage?: string;
  lastStatus?: number;
}

/** Runs the authorisation request through sign-in (and choice) up to the redirect back to the portal. */
export async function authorize(app: FastifyInstance, options: SignInOptions): Promise<SignInResult> {
  const browser = options.browser ?? new Browser(app);
  const codes = pkce();
  let response = await browser.follow(await browser.get(authorizationPath(app.config.publicUrl, codes.challenge, options)));
  let choiceShown = false;
  for (let step = 0; step < 4; step += 1) {
    if (response.statusCode >= 300 && response.statusCode < 400) {
      return { browser, pkce: codes, redirect: new URL(response.headers.location as string, app.config.publicUrl), choiceShown };
    }
    if (response.statusCode >= 400 || !response.body.includes('<form')) {
      return { browser, pkce: codes, redirect: new URL('about:blank'), choiceShown, lastPage: response.body, lastStatus: response.statusCode };
    }
    const page = response.body;
    const action = formAction(page);
    if (action.includes('/login')) {
      response = await browser.follow(await browser.post(action, { email: options.email, password: options.password }));
      if (response.statusCode === 200 || response.statusCode >= 400) {
        if (formAction(response.body).includes('/login')) {
          return { browser, pkce: codes, redirect: new URL('about:blank'), choiceShown, lastPage: response.body, lastStatus: response.statusCode };
        }
      }
    } else if (action.includes('/two_step')) {
      if (!options.code) return { browser, pkce: codes, redirect: new URL('about:blank'), choiceShown, lastPage: page, lastStatus: response.statusCode };
      response = await browser.follow(await browser.post(action, { code: options.code() }));
      if ((response.statusCode === 200 || response.statusCode >= 400) && formAction(response.body).includes('/two_step')) {
        return { browser, pkce: codes, redirect: new URL('about:blank'), choiceShown, lastPage: response.body, lastStatus: response.statusCode };
      }
    } else if (action.includes('/organization')) {
      choiceShown = true;
      const buttons = organizationButtons(page);
      const wanted = buttons.find((button) => options.choose && button.label.includes(options.choose)) ?? buttons[0];
      if (!wanted) throw new Error('no organisation offered');
      response = await browser.follow(await browser.post(action, { organization_id: wanted.id }));
    } else {
      throw new Error(`unexpected form ${action}`);
    }
  }
  throw new Error('sign-in did not finish');
}

export async function tokenCall(app: FastifyInstance, form: Record<string, string>): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

export async function exchangeCode(app: FastifyInstance, result: SignInResult): Promise<TokenEndpointResponse> {
  const code = result.redirect.searchParams.get('code');
  if (!code) {
    const shown = (result.lastPage ?? '').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').slice(0, 400);
    throw new Error(`no code in ${result.redirect}: the sign-in stopped at ${result.lastStatus ?? '?'} showing "${shown}"`);
  }
  const response = await tokenCall(app, {
    grant_type: 'authorization_code',
    scope: SCOPES,
    code,
    redirect_uri: `${app.config.publicUrl}${CALLBACK_PATH}`,
    client_id: PORTAL_CLIENT_ID,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:none',
    code_verifier: result.pkce.verifier,
  });
  if (response.statusCode !== 200) throw new Error(`token endpoint answered ${response.statusCode}: ${response.body}`);
  return response.json() as TokenEndpointResponse;
}

export async function refresh(app: FastifyInstance, refreshToken: string): Promise<LightMyRequestResponse> {
  return tokenCall(app, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: PORTAL_CLIENT_ID });
}

/** Sign-in up to the tokens. */
export async function signIn(app: FastifyInstance, options: SignInOptions): Promise<SignInResult & { tokens: TokenEndpointResponse }> {
  const result = await authorize(app, options);
  return { ...result, tokens: await exchangeCode(app, result) };
}

/** The end-session page as the portal's logout opens it (signinRequest.ts endSessionUrl), with or without id_token_hint. */
export function endSession(browser: Browser, publicUrl: string, idTokenHint?: string): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams({ client_id: PORTAL_CLIENT_ID, post_logout_redirect_uri: `${publicUrl}/`, type: 'admin' });
  if (idTokenHint) query.set('id_token_hint', idTokenHint);
  return browser.get(`${ISSUER_PATH}/session/end?${query}`);
}

/** Submits the end-session page's form (its xsrf, logout=yes): what its script or its button does. */
export function confirmLogout(browser: Browser, page: LightMyRequestResponse): Promise<LightMyRequestResponse> {
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
  return browser.post(pathOf(formAction(page.body)), { xsrf, logout: 'yes' });
}

/** Signs the session out at the end-session endpoint, as the portal's logout does. */
export async function logOut(session: SignInResult & { tokens: TokenEndpointResponse }, publicUrl: string): Promise<LightMyRequestResponse> {
  return confirmLogout(session.browser, await endSession(session.browser, publicUrl, session.tokens.id_token));
}

/** Waits for the next whole second: tokens are compared with a revocation by their iat (whole seconds). */
export function nextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

/** PUT admins/{adminId}/password: the answer carries the new session's tokens. */
export function changePassword(app: FastifyInstance, adminId: number, accessToken: string, current: string, next: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'PUT', url: `/api/v2/admins/${adminId}/password`, headers: bearer(accessToken), payload: { current, new: next } });
}

/** The claims of a JWT, unverified. */
export function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Headers of an API call with the access token. */
export function bearer(accessToken: string): Record<string, string> {
  return { 'x-v2-admin-auth-token': `Bearer ${accessToken}` };
}

/**
 * Where 'Continue with single sign-on' sends the browser: a page going on at once (meta refresh; a redirect of the
 * form's POST to another origin would break the pages' CSP form-action 'self').
 */
export function idpUrlOf(answer: { statusCode: number; body: string }): string {
  if (answer.statusCode !== 200) throw new Error(`expected the page on to the IdP, got ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
  const url = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(answer.body)?.[1];
  if (!url) throw new Error(`no way on to the IdP in ${answer.body.slice(0, 300)}`);
  return url.replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
