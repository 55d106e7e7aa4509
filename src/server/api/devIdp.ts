/**
 * The demo identity provider at /dev/idp (issue 45 §8), in demo mode only (registered with the other /dev pages, so it
 * answers this machine only): an oidc-provider instance that plays a customer's OpenID Connect IdP, so single sign-on
 * can be tried after `npm start`. Issuer `${PUBLIC_URL}/dev/idp`; one confidential client, the demo connection's, for
 * the portal's federation callback; keys and state in memory (a restart forgets them, as a demo may); its own small
 * sign-in page (the demo users of seed/demoData.ts `demoSso`, the demo password). The ID token carries email,
 * email_verified, the names and amr: ['pwd', 'mfa'] for one user and ['pwd'] for the other.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { DEMO_PASSWORD, demoSso } from '../db/seed/demoData.js';
import { FEDERATION_CALLBACK_PATH } from '../idp/federation.js';
import { escapeHtml } from '../mail/templates.js';

export const DEV_IDP_PATH = '/dev/idp';

export const demoIdpIssuer = (publicUrl: string) => `${publicUrl}${DEV_IDP_PATH}`;

/** The demo IdP's state, in this process's memory (oidc-provider's own memory adapter warns at every start). */
class MemoryAdapter {
  private static readonly store = new Map<string, { payload: Record<string, unknown>; until: number }>();
  constructor(private readonly model: string) {}
  private key = (id: string) => `${this.model}:${id}`;
  async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
    if (MemoryAdapter.store.size > 10_000) MemoryAdapter.store.clear();
    MemoryAdapter.store.set(this.key(id), { payload, until: Date.now() + expiresIn * 1000 });
  }
  async find(id: string) {
    const entry = MemoryAdapter.store.get(this.key(id));
    return entry && entry.until > Date.now() ? entry.payload : undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async findByUid(uid: string) {
    for (const [key, entry] of MemoryAdapter.store) if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid && entry.until > Date.now()) return entry.payload;
    return undefined;
  }
  async consume(id: string) {
    const entry = MemoryAdapter.store.get(this.key(id));
    if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MemoryAdapter.store.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [key, entry] of MemoryAdapter.store) if (entry.payload.grantId === grantId) MemoryAdapter.store.delete(key);
  }
}

const userOf = (email: string) => demoSso.users.find((user) => user.email === email.trim().toLowerCase());

let demoIdpKey: Promise<JWK> | undefined;

/**
 * The demo IdP's signing key, made once a process: an RSA key costs 0.1–0.3 s of CPU, and every app built in demo mode
 * (each test's, each end-to-end portal) has a demo IdP; its tokens live in this process's memory only.
 */
function demoIdpSigningKey(): Promise<JWK> {
  demoIdpKey ??= (async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    return { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'demo-idp' };
  })();
  demoIdpKey.catch(() => (demoIdpKey = undefined));
  return demoIdpKey;
}

async function createDemoIdp(publicUrl: string): Promise<Provider> {
  const jwk = await demoIdpSigningKey();
  return new Provider(demoIdpIssuer(publicUrl), {
    clients: [
      {
        client_id: demoSso.clientId,
        client_secret: demoSso.clientSecret,
        redirect_uris: [`${publicUrl}${FEDERATION_CALLBACK_PATH}`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk as never] },
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'], profile: ['name', 'family_name', 'given_name'], amr: null },
    // the claims in the ID token itself, as many IdPs answer them
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${DEV_IDP_PATH}/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const user = userOf(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: user.email, email_verified: true, family_name: user.familyName, given_name: user.givenName, name: `${user.familyName} ${user.givenName}` }),
      };
    },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    adapter: MemoryAdapter as never,
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
  });
}

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><link rel="icon" href="/favicon.png"><title>${escapeHtml(title)}</title></head>\n<body>\n<main>\n<h1>${escapeHtml(title)}</h1>\n${body}\n</main>\n</body>\n</html>\n`;
}

function signInPage(uid: string, email: string, refused: boolean): string {
  const users = demoSso.users.map((user) => `<li>${escapeHtml(user.email)} (amr ${escapeHtml(user.amr.join(', '))})</li>`).join('\n');
  return page(
    'Demo IdP: sign in',
    `<p>This is the demo identity provider, a stand-in for a company's own IdP (Entra ID, Okta…). Its users:</p>
<ul>
${users}
</ul>
<p>Their password: <code>${escapeHtml(DEMO_PASSWORD)}</code></p>
${refused ? '<p id="refusal" role="alert">Unknown e-mail or wrong password.</p>' : ''}
<form method="post" action="${DEV_IDP_PATH}/interaction/${encodeURIComponent(uid)}/login">
<p><label for="email">E-mail</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in to the demo IdP</button></p>
</form>`,
  );
}

const htmlReply = (reply: FastifyReply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');

export const devIdpRoutes: FastifyPluginAsync = async (app) => {
  const provider = await createDemoIdp(app.config.publicUrl);
  provider.proxy = true;
  const publicUrl = new URL(app.config.publicUrl);
  const callback = provider.callback();

  // the sign-in page: the interaction the provider started, with the e-mail the portal passed as login_hint
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.get<{ Params: { uid: string } }>(`${DEV_IDP_PATH}/interaction/:uid`, { schema: { hide: true } }, async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
      if (!details || details.uid !== request.params.uid) return htmlReply(reply).code(400).send(page('Demo IdP', '<p>This sign-in has expired. Start again from the portal.</p>'));
      const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
      return htmlReply(reply).send(signInPage(details.uid, hint, false));
    });
    scope.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${DEV_IDP_PATH}/interaction/:uid/login`, { schema: { hide: true }, config: { audit: [] } }, async (request, reply) => {
      const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
      if (!details || details.uid !== request.params.uid) return htmlReply(reply).code(400).send(page('Demo IdP', '<p>This sign-in has expired. Start again from the portal.</p>'));
      const email = request.body?.email ?? '';
      const user = userOf(email);
      if (!user || request.body?.password !== DEMO_PASSWORD) return htmlReply(reply).code(401).send(signInPage(details.uid, email, true));
      const grant = new provider.Grant({ accountId: user.email, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      reply.hijack();
      await provider.interactionFinished(request.raw, reply.raw, { login: { accountId: user.email, amr: [...user.amr] }, consent: { grantId } });
    });
  });

  // the provider's own endpoints (discovery, authorization, token, keys), under the mount path
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      const rest = (raw.url ?? '').slice(DEV_IDP_PATH.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      // its endpoints at PUBLIC_URL, like its issuer, whatever Host the request named (the /dev hook refuses proxies)
      raw.headers['x-forwarded-host'] = publicUrl.host;
      raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      void callback(raw, reply.raw);
    };
    // the demo IdP changes no organisation's data: nothing to audit
    const options = { schema: { hide: true }, config: { audit: [] } };
    scope.all(DEV_IDP_PATH, options, handler);
    scope.all(`${DEV_IDP_PATH}/*`, options, handler);
  });
};
