/**
 * The demo identity provider at /dev/idp (issue 45 §8): in demo mode the portal serves a customer's OpenID Connect IdP
 * of its own, for this machine only, and the demo data gives G0000001 a connection to it with a verified domain and
 * its admins; outside demo mode there is no such IdP. The whole sign-in through it is test/e2e/ssoDemo.test.ts.
 */
import { expect } from 'chai';
import { DEMO_PASSWORD, demoSso } from '../../../src/server/db/seed/demoData.js';
import { seedDemoSso } from '../../../src/server/db/seed/index.js';
import { openClientSecret } from '../../../src/server/domain/ssoSecrets.js';
import { homeRealmOf } from '../../../src/server/idp/federation.js';
import { Browser, pathOf, pkce } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const DISCOVERY = '/dev/idp/.well-known/openid-configuration';

describe('The demo identity provider (/dev/idp, issue 45 §8)', function () {
  this.timeout(20_000);

  describe('in demo mode', () => {
    const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL } });

    it('serves its discovery document, issuer ${PUBLIC_URL}/dev/idp, with its endpoints under that path', async () => {
      const response = await ctx.app.inject({ url: DISCOVERY });
      expect(response.statusCode, response.body).to.equal(200);
      const discovery = response.json() as Record<string, unknown>;
      expect(discovery.issuer).to.equal(`${PUBLIC_URL}/dev/idp`);
      expect(discovery.authorization_endpoint).to.equal(`${PUBLIC_URL}/dev/idp/auth`);
      expect(discovery.token_endpoint).to.equal(`${PUBLIC_URL}/dev/idp/token`);
      expect(discovery.claims_supported).to.include.members(['email', 'email_verified', 'family_name', 'given_name', 'amr']);
      const keys = await ctx.app.inject({ url: '/dev/idp/jwks' });
      expect(keys.statusCode).to.equal(200);
      expect((keys.json() as { keys: unknown[] }).keys).to.have.length(1);
    });

    it('answers this machine only, like the other /dev pages', async () => {
      const response = await ctx.app.inject({ url: DISCOVERY, remoteAddress: '192.0.2.10' });
      expect(response.statusCode).to.equal(403);
      const proxied = await ctx.app.inject({ url: DISCOVERY, headers: { 'x-forwarded-for': '192.0.2.10' } });
      expect(proxied.statusCode).to.equal(403);
    });

    it('its sign-in page refuses an interaction it did not start', async () => {
      const response = await ctx.app.inject({ url: '/dev/idp/interaction/unknown-uid' });
      expect(response.statusCode).to.equal(400);
      expect(response.body).to.include('This sign-in has expired');
    });

    it('signs its users in with the demo password: the ID token has email, email_verified, the names and amr — pwd and mfa for sso-admin@, pwd alone for sso-member@', async () => {
      const redirectUri = `${PUBLIC_URL}/oidc/federation/callback`;
      for (const [email, amr] of [['sso-admin@sso.example.com', ['pwd', 'mfa']], ['sso-member@sso.example.com', ['pwd']]] as const) {
        const browser = new Browser(ctx.app);
        const codes = pkce();
        const query = { client_id: demoSso.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid email profile', code_challenge: codes.challenge, code_challenge_method: 'S256', state: 'state-1', nonce: 'nonce-1', login_hint: email };
        const start = await browser.get(`/dev/idp/auth?${new URLSearchParams(query)}`);
        expect(start.statusCode, start.body).to.equal(303);
        const interaction = pathOf(start.headers.location as string);
        const page = await browser.get(interaction);
        expect(page.body).to.include(`value="${email}"`).and.include('<label for="password">Password</label>');
        expect((await browser.post(`${interaction}/login`, { email, password: 'not-the-password' })).statusCode).to.equal(401);
        let answer = await browser.post(`${interaction}/login`, { email, password: DEMO_PASSWORD });
        for (let hops = 0; hops < 5 && !String(answer.headers.location).startsWith(redirectUri); hops += 1) answer = await browser.get(pathOf(answer.headers.location as string));
        const code = new URL(answer.headers.location as string).searchParams.get('code')!;
        const token = await ctx.app.inject({
          method: 'POST',
          url: '/dev/idp/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: demoSso.clientId, client_secret: demoSso.clientSecret, code_verifier: codes.verifier }).toString(),
        });
        expect(token.statusCode, token.body).to.equal(200);
        const claims = JSON.parse(Buffer.from((token.json() as { id_token: string }).id_token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
        expect(claims).to.include({ iss: `${PUBLIC_URL}/dev/idp`, aud: demoSso.clientId, email, email_verified: true, nonce: 'nonce-1' });
        expect(claims.family_name).to.be.a('string').and.not.equal('');
        expect(claims.given_name).to.be.a('string').and.not.equal('');
        expect(claims.amr).to.deep.equal(amr);
      }
    });

    it('the demo data: G0000001’s connection Demo IdP (on, the demo IdP’s issuer and client, secret sealed), sso.example.com verified and routed to it, its admins activated without a password', async () => {
      await seedDemoSso(ctx.db, `${PUBLIC_URL}/dev/idp`, ctx.config.secretKeys);
      const connection = await ctx.db.selectFrom('ssoConnections').selectAll().where('id', '=', demoSso.connectionId).executeTakeFirstOrThrow();
      expect(connection).to.include({ organizationId: 1, protocol: 'oidc', name: 'Demo IdP', state: 'on', issuer: `${PUBLIC_URL}/dev/idp`, clientId: demoSso.clientId, attributeEmail: 'email' });
      expect(connection.clientSecretEncrypted).to.not.include(demoSso.clientSecret);
      expect(await openClientSecret({ db: ctx.db, configuredKeys: ctx.config.secretKeys }, connection.id, connection.clientSecretEncrypted!)).to.equal(demoSso.clientSecret);
      const realm = await homeRealmOf(ctx.db, 'sso-admin@sso.example.com');
      expect(realm?.requireSso).to.equal(false);
      expect(realm?.connection?.id).to.equal(demoSso.connectionId);
      const admins = await ctx.db
        .selectFrom('admins')
        .innerJoin('affiliations', 'affiliations.adminId', 'admins.id')
        .select(['admins.email', 'admins.passwordHash', 'admins.activatedAt', 'affiliations.organizationId', 'affiliations.role'])
        .where('admins.email', 'like', '%@sso.example.com')
        .orderBy('admins.email')
        .execute();
      expect(admins.map(({ email, organizationId, role, passwordHash }) => ({ email, organizationId, role, passwordHash }))).to.deep.equal([
        { email: 'sso-admin@sso.example.com', organizationId: 1, role: 'manager', passwordHash: null },
        { email: 'sso-member@sso.example.com', organizationId: 1, role: 'member', passwordHash: null },
      ]);
      expect(admins.every((admin) => admin.activatedAt !== null)).to.equal(true);
    });

    it('a start on another PUBLIC_URL points the demo connection at that start’s demo IdP, adding nothing twice', async () => {
      await seedDemoSso(ctx.db, `${PUBLIC_URL}/dev/idp`, ctx.config.secretKeys);
      await seedDemoSso(ctx.db, 'http://localhost:4000/dev/idp', ctx.config.secretKeys);
      const connections = await ctx.db.selectFrom('ssoConnections').select(['id', 'issuer']).where('organizationId', '=', 1).execute();
      expect(connections).to.deep.equal([{ id: demoSso.connectionId, issuer: 'http://localhost:4000/dev/idp' }]);
      const domains = await ctx.db.selectFrom('ssoDomains').select('domain').execute();
      expect(domains).to.deep.equal([{ domain: 'sso.example.com' }]);
      const affiliations = await ctx.db.selectFrom('affiliations').innerJoin('admins', 'admins.id', 'affiliations.adminId').select('admins.email').where('admins.email', 'like', '%@sso.example.com').execute();
      expect(affiliations).to.have.length(2);
    });
  });

  describe('outside demo mode', () => {
    const ctx = useTestApp({ env: { DEMO: 'off', SEED: 'none', PUBLIC_URL } });

    it('is not served: 404', async () => {
      for (const url of [DISCOVERY, '/dev/idp/auth', '/dev/idp/jwks', '/dev/idp/interaction/x']) {
        const response = await ctx.app.inject({ url });
        expect(response.statusCode, url).to.equal(404);
      }
    });
  });
});
