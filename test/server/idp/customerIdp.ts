/**
 * A customer's OpenID Connect IdP for the tests (issue 45): oidc-provider on a loopback port over http (demo mode
 * allows it), with a client registered for the portal's redirect_uri. Its interaction signs in at once whichever
 * account `state.user` names, with its `amr`/`acr`; `throughIdp` is the browser at it (real HTTP, its cookies).
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface CustomerIdpState {
  user: { email: string; email_verified?: boolean; given_name?: string; family_name?: string };
  amr?: string[];
  acr?: string;
}

/** `onToken`: sees each token request's response before the IdP answers it (a test may rewrite the answer). */
export async function startCustomerIdp(options: { publicUrl: string; clientId: string; clientSecret: string; onToken?: (response: ServerResponse) => void }) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'customer-key' };
  const state: CustomerIdpState = { user: { email: 'admin@example.com' } };
  const server = http.createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: options.clientId, client_secret: options.clientSecret, redirect_uris: [`${options.publicUrl}/oidc/federation/callback`], token_endpoint_auth_method: 'client_secret_post' }],
    jwks: { keys: [jwk as never] },
    claims: { openid: ['sub', 'amr', 'acr'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'], amr: null },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...state.user }) }),
    cookies: { keys: ['customer-idp-cookie-key'] },
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (request.url?.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(request, response);
      const grant = new provider.Grant({ accountId: state.user.email, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(request, response, { login: { accountId: state.user.email, ...(state.amr ? { amr: state.amr } : {}), ...(state.acr ? { acr: state.acr } : {}) }, consent: { grantId } });
      return;
    }
    if (request.url?.startsWith('/token')) options.onToken?.(response);
    provider.callback()(request, response);
  }

  /** The IdP's signing key (a test forges ID tokens with it). */
  const signing = { privateKey, kid: jwk.kid };
  return { issuer, state, signing, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A browser at the IdP (real HTTP): follows its redirects with its cookies until the answer goes back to `publicUrl`. */
export async function throughIdp(location: string, publicUrl: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = location;
  for (let hops = 0; hops < 10; hops += 1) {
    if (url.startsWith(publicUrl)) return url;
    const answer = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
    for (const line of answer.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    const next = answer.headers.get('location');
    if (!next) throw new Error(`the IdP answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
    url = new URL(next, url).href;
  }
  throw new Error('too many redirects at the IdP');
}
