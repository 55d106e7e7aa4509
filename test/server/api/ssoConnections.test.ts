/**
 * Single sign-on with the customer's own identity provider, its foundation (issue 45): connections and verified
 * domains of an organisation, managers only, audited and versioned like contacts; domains verified by a TXT record
 * that a local DNS server (dns2) answers through DNS_SERVERS. On the demo data: G0000001 (id 1) managed by manager@
 * (1), member@ (2) its member; G0000002 (id 2) gets a manager of its own here.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { openClientSecret } from '../../../src/server/domain/ssoSecrets.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { createTestApp, type TestApp } from '../support/testApp.js';

type Json = Record<string, any>;
type Headers = Record<string, string>;

const PUBLIC_URL = 'http://localhost:3000';
const SECRET = 'oidc-client-secret-that-must-never-come-back';
const OIDC = { protocol: 'oidc', name: 'Entra ID', issuer: 'https://login.example.com/tenant/v2.0', client_id: 'portal-client', client_secret: SECRET };
const METADATA_XML = '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"><md:IDPSSODescriptor/></md:EntityDescriptor>';
const SAML = { protocol: 'saml', name: 'SimpleSAMLphp', idp_metadata_xml: METADATA_XML };

describe('Single-sign-on connections and domains API (issue 45)', function () {
  this.timeout(30_000);
  let dns: TestDnsServer;
  const ctx = {} as TestApp;
  const as = {} as Record<'manager' | 'member' | 'otherManager' | 'managerInTwo' | 'federated' | 'federatedLongAgo', Headers>;

  before(async function () {
    this.timeout(60_000);
    dns = await startDnsServer();
    Object.assign(ctx, await createTestApp({ env: { SEED: 'demo', PUBLIC_URL, DNS_SERVERS: dns.server } }));
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'other-manager@example.com', firstName: '次郎', lastName: '田中', kanaFirstName: 'じろう', kanaLastName: 'たなか', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: 2, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
    as.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
    as.managerInTwo = bearer(await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' }));
    // a session signed in through single sign-on (amr fed, sso_connection): here through a connection of no domain
    as.federated = bearer(await accessToken(ctx.app, { sub: '1', amr: ['fed'], ssoConnection: randomUUID() }));
    as.federatedLongAgo = bearer(await accessToken(ctx.app, { sub: '1', amr: ['fed'], ssoConnection: randomUUID(), authTime: Math.floor(Date.now() / 1000) - 11 * 60 }));
  });

  after(async () => {
    await ctx.close?.();
    await dns?.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/organizations/${path}`, headers, ...(payload ? { payload } : {}) });
  /** A session signed in through the connection just now (what the sign-in through its IdP gives). */
  const federatedThrough = async (connectionId: string) => bearer(await accessToken(ctx.app, { sub: '1', amr: ['fed'], ssoConnection: connectionId }));
  const created = async (response: LightMyRequestResponse, key: string): Promise<Json> => {
    expect(response.statusCode, response.body).to.equal(201);
    return response.json()[key];
  };
  const fieldErrors = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).to.equal(422);
    return response.json().errors.map((error: Json) => `${error.field} ${error.code}`);
  };
  const trail = (action: string) => ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', action).orderBy('id').execute();

  describe('connections', () => {
    it('creates an OpenID Connect draft with the redirect URI to register, never answering its secret, which is stored sealed', async () => {
      const response = await call('POST', '1/sso_connections', as.manager, OIDC);
      const connection = await created(response, 'sso_connection');
      expect(connection).to.include({ protocol: 'oidc', name: 'Entra ID', state: 'draft', issuer: OIDC.issuer, client_id: 'portal-client', client_secret_set: true });
      expect(connection).to.include({ redirect_uri: `${PUBLIC_URL}/oidc/federation/callback`, sp_entity_id: null, acs_url: null, sp_metadata_url: null });
      expect(connection.attribute_mapping).to.deep.equal({ email: 'email', family_name: 'family_name', given_name: 'given_name' });
      expect(connection).to.include({ trust_idp_mfa: false, jit_provisioning: false, idp_initiated: false });
      expect(connection.id).to.match(/^[0-9a-f-]{36}$/);
      expect(response.headers.etag).to.equal(connection.etag);
      expect(response.body).to.not.include(SECRET).and.not.include('client_secret"');
      const stored = await ctx.db.selectFrom('ssoConnections').select('clientSecretEncrypted').where('id', '=', connection.id).executeTakeFirstOrThrow();
      expect(stored.clientSecretEncrypted).to.match(/^v2\./).and.not.include(SECRET);
      expect(await openClientSecret({ db: ctx.db, configuredKeys: ctx.config.secretKeys }, connection.id, stored.clientSecretEncrypted!)).to.equal(SECRET);
      for (const read of [await call('GET', '1/sso_connections', as.manager), await call('GET', `1/sso_connections/${connection.id}`, as.manager)]) {
        expect(read.statusCode).to.equal(200);
        expect(read.body).to.not.include(SECRET);
      }
    });

    it("creates a SAML draft with the portal's entity ID, ACS URL and metadata URL, named by the connection's id", async () => {
      const connection = await created(await call('POST', '1/sso_connections', as.manager, SAML), 'sso_connection');
      const base = `${PUBLIC_URL}/saml/${connection.id}`;
      expect(connection).to.include({ protocol: 'saml', state: 'draft', sp_entity_id: base, acs_url: `${base}/acs`, sp_metadata_url: `${base}/metadata`, redirect_uri: null });
      expect(connection).to.include({ idp_metadata_xml: METADATA_XML, idp_metadata_url: null, issuer: null, client_id: null, client_secret_set: false });
      expect(connection.attribute_mapping.email).to.equal('nameID');
      const read = await call('GET', `1/sso_connections/${connection.id}`, as.manager);
      expect(read.json().sso_connection).to.deep.equal(connection);
      expect(read.headers.etag).to.equal(connection.etag);
    });

    it('keeps the attribute mapping sent, the defaults for what is not, and null for a name not taken from the IdP', async () => {
      const mapping = { email: 'mail', given_name: null };
      const connection = await created(await call('POST', '1/sso_connections', as.manager, { ...OIDC, attribute_mapping: mapping }), 'sso_connection');
      expect(connection.attribute_mapping).to.deep.equal({ email: 'mail', family_name: 'family_name', given_name: null });
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...OIDC, attribute_mapping: { email: '' } }))).to.deep.equal(['attribute_mapping.email blank']);
    });

    it("refuses the other protocol's settings, metadata as XML and a URL at once, and metadata that is no EntityDescriptor or has a DOCTYPE", async () => {
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...SAML, client_id: 'x' }))).to.deep.equal(['client_id invalid']);
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...OIDC, idp_metadata_url: 'https://idp.example.com/metadata' }))).to.deep.equal(['idp_metadata_url invalid']);
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...SAML, idp_metadata_url: 'https://idp.example.com/metadata' }))).to.deep.equal(['idp_metadata_url invalid']);
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...SAML, idp_metadata_xml: '<html/>' }))).to.deep.equal(['idp_metadata_xml invalid']);
      const doctype = `<!DOCTYPE md [<!ENTITY x SYSTEM "file:///etc/passwd">]>${METADATA_XML}`;
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...SAML, idp_metadata_xml: doctype }))).to.deep.equal(['idp_metadata_xml invalid']);
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { protocol: 'ldap', name: 'x' }))).to.deep.equal(['protocol invalid']);
    });

    it("validates with the /sso page's forms (schemas/sso-*.json): their message keys, and an edit form's fields of the other protocol refused", async () => {
      const both = await call('POST', '1/sso_connections', as.manager, { ...SAML, idp_metadata_url: 'https://idp.example.com/metadata' });
      expect(both.json().errors).to.deep.equal([{ field: 'idp_metadata_url', code: 'invalid', meta: { message_key: 'sso.validation.metadataOnce' } }]);
      const ftp = await call('POST', '1/sso_connections', as.manager, { ...OIDC, issuer: 'ftp://idp.example.com' });
      expect(ftp.json().errors).to.deep.equal([{ field: 'issuer', code: 'invalid', meta: { message_key: 'validation.urlInvalid' } }]);
      const domain = await call('POST', '1/sso_domains', as.manager, { domain: 'localhost' });
      expect(domain.json().errors).to.deep.equal([{ field: 'domain', code: 'invalid', meta: { message_key: 'validation.domainInvalid' } }]);
      const saml = await created(await call('POST', '1/sso_connections', as.manager, SAML), 'sso_connection');
      const mixed = { idp_metadata_url: 'https://idp.example.com/metadata', issuer: 'https://okta.example.com', state: 'paused' };
      expect(fieldErrors(await call('PATCH', `1/sso_connections/${saml.id}`, as.manager, mixed))).to.deep.equal(['issuer invalid']);
    });

    it('takes just-in-time members on either protocol and IdP-initiated sign-in on SAML only, when created and changed', async () => {
      const saml = await created(await call('POST', '1/sso_connections', as.manager, { ...SAML, jit_provisioning: true, idp_initiated: true }), 'sso_connection');
      expect(saml).to.include({ jit_provisioning: true, idp_initiated: true });
      const oidc = await created(await call('POST', '1/sso_connections', as.manager, { ...OIDC, jit_provisioning: true }), 'sso_connection');
      expect(oidc).to.include({ jit_provisioning: true, idp_initiated: false });
      expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...OIDC, idp_initiated: true }))).to.deep.equal(['idp_initiated invalid']);
      const changed = await call('PATCH', `1/sso_connections/${saml.id}`, as.manager, { jit_provisioning: false, idp_initiated: false });
      expect(changed.statusCode, changed.body).to.equal(200);
      expect(changed.json().sso_connection).to.include({ jit_provisioning: false, idp_initiated: false });
      expect(fieldErrors(await call('PATCH', `1/sso_connections/${oidc.id}`, as.manager, { idp_initiated: true }))).to.deep.equal(['idp_initiated invalid']);
    });

    it('turns a draft on only once complete (the missing settings answered as blank), then pauses it', async () => {
      const draft = await created(await call('POST', '1/sso_connections', as.manager, { protocol: 'oidc', name: 'Okta' }), 'sso_connection');
      expect(draft).to.include({ client_secret_set: false, issuer: null });
      expect(fieldErrors(await call('PATCH', `1/sso_connections/${draft.id}`, as.manager, { state: 'on' }))).to.deep.equal(['issuer blank', 'client_id blank', 'client_secret blank']);
      // the refused change left nothing: still a draft, same version
      expect((await call('GET', `1/sso_connections/${draft.id}`, as.manager)).headers.etag).to.equal(draft.etag);
      const on = await call('PATCH', `1/sso_connections/${draft.id}`, as.manager, { state: 'on', issuer: 'https://okta.example.com', client_id: 'c', client_secret: 's' });
      expect(on.statusCode, on.body).to.equal(200);
      expect(on.json().sso_connection).to.include({ state: 'on', client_secret_set: true, issuer: 'https://okta.example.com' });
      const paused = await call('PATCH', `1/sso_connections/${draft.id}`, as.manager, { state: 'paused' });
      expect(paused.json().sso_connection.state).to.equal('paused');
      expect(fieldErrors(await call('PATCH', `1/sso_connections/${draft.id}`, as.manager, { state: 'draft' }))).to.deep.equal(['state invalid']);

      const saml = await created(await call('POST', '1/sso_connections', as.manager, { protocol: 'saml', name: 'HENNGE One' }), 'sso_connection');
      expect(fieldErrors(await call('PATCH', `1/sso_connections/${saml.id}`, as.manager, { state: 'on' }))).to.deep.equal(['idp_metadata_xml blank', 'idp_metadata_url blank']);
      const withUrl = await call('PATCH', `1/sso_connections/${saml.id}`, as.manager, { state: 'on', idp_metadata_url: 'https://idp.example.com/metadata' });
      expect(withUrl.json().sso_connection).to.include({ state: 'on', idp_metadata_url: 'https://idp.example.com/metadata' });
      // metadata as XML replaces the URL
      const withXml = await call('PATCH', `1/sso_connections/${saml.id}`, as.manager, { idp_metadata_xml: METADATA_XML });
      expect(withXml.json().sso_connection).to.include({ idp_metadata_xml: METADATA_XML, idp_metadata_url: null });
    });

    it('changes and deletes only the version If-Match names (412 who and when), as contacts', async () => {
      const seen = await created(await call('POST', '1/sso_connections', as.manager, OIDC), 'sso_connection');
      const first = await call('PATCH', `1/sso_connections/${seen.id}`, { ...as.manager, 'if-match': seen.etag }, { name: 'Renamed' });
      expect(first.statusCode, first.body).to.equal(200);
      expect(first.headers.etag).to.not.equal(seen.etag);
      const stale = await call('PATCH', `1/sso_connections/${seen.id}`, { ...as.manager, 'if-match': seen.etag }, { name: 'Again' });
      expect(stale.statusCode).to.equal(412);
      expect(stale.json()).to.deep.include({ error: 'precondition_failed', changed_by: { name: '山田 太郎', email: 'manager@example.com' } });
      expect((await call('DELETE', `1/sso_connections/${seen.id}`, { ...as.manager, 'if-match': seen.etag })).statusCode).to.equal(412);
      expect((await call('DELETE', `1/sso_connections/${seen.id}`, { ...as.manager, 'if-match': first.headers.etag as string })).statusCode).to.equal(204);
      expect((await call('GET', `1/sso_connections/${seen.id}`, as.manager)).statusCode).to.equal(404);
    });

    it('answers members 403 and another organisation 403 or 404, and never changes a connection of another organisation', async () => {
      const own = await created(await call('POST', '1/sso_connections', as.manager, OIDC), 'sso_connection');
      const theirs = await created(await call('POST', '2/sso_connections', as.otherManager, { ...OIDC, name: 'Theirs' }), 'sso_connection');
      for (const [method, path, payload] of [
        ['GET', '1/sso_connections'],
        ['POST', '1/sso_connections', OIDC],
        ['GET', `1/sso_connections/${own.id}`],
        ['PATCH', `1/sso_connections/${own.id}`, { name: 'x' }],
        ['DELETE', `1/sso_connections/${own.id}`],
      ] as const) {
        expect((await call(method, path, as.member, payload)).statusCode, `member ${method} ${path}`).to.equal(403);
        expect((await call(method, path, as.otherManager, payload)).statusCode, `G0000002's manager ${method} ${path}`).to.equal(403);
        expect((await call(method, path, as.managerInTwo, payload)).statusCode, `a G0000002 session ${method} ${path}`).to.equal(403);
      }
      // G0000002's connection through G0000001's path: unknown there
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        expect((await call(method, `1/sso_connections/${theirs.id}`, as.manager, method === 'PATCH' ? { name: 'Mine now' } : undefined)).statusCode, method).to.equal(404);
      }
      expect((await call('GET', '2/sso_connections', as.otherManager)).json().sso_connections.map((row: Json) => row.name)).to.deep.equal(['Theirs']);
      expect((await call('GET', '1/sso_connections/not-a-uuid', as.manager)).statusCode).to.equal(422);
    });

    it('records created, changed (a replaced secret without its value) and deleted in the trail, no secret in it', async () => {
      const connection = await created(await call('POST', '1/sso_connections', as.manager, { ...OIDC, name: 'Audited' }), 'sso_connection');
      await call('PATCH', `1/sso_connections/${connection.id}`, as.manager, { client_secret: 'another-secret-value', trust_idp_mfa: true });
      await call('DELETE', `1/sso_connections/${connection.id}`, as.manager);
      const entries = (await ctx.db.selectFrom('auditEvents').selectAll().where('targetId', '=', connection.id).orderBy('id').execute()).map((entry) => ({
        action: entry.action,
        type: entry.targetType,
        label: entry.targetLabel,
        organization: entry.organizationId,
        changes: entry.changes as Json,
      }));
      expect(entries.map((entry) => entry.action)).to.deep.equal(['sso.connectionCreated', 'sso.connectionChanged', 'sso.connectionDeleted']);
      expect(entries.every((entry) => entry.type === 'ssoConnection' && entry.label === 'Audited' && entry.organization === 1)).to.equal(true);
      expect(entries[0]!.changes).to.deep.include({ issuer: { before: null, after: OIDC.issuer }, clientSecret: { before: null, after: 'replaced' } });
      expect(entries[1]!.changes).to.deep.equal({ trustIdpMfa: { before: false, after: true }, clientSecret: { before: 'set', after: 'replaced' } });
      expect(JSON.stringify(entries)).to.not.include(SECRET).and.not.include('another-secret-value').and.not.include('v1.');
    });
  });

  describe('IdP URLs: https and public addresses; in demo mode http on loopback too', () => {
    it('in demo mode takes http and https on a loopback address, and refuses plain http elsewhere and private addresses', async () => {
      for (const url of ['http://127.0.0.1:4000/oidc', 'http://localhost:4000', 'https://[::1]:8443/idp', 'https://idp.example.com/tenant']) {
        const response = await call('POST', '1/sso_connections', as.manager, { ...OIDC, issuer: url });
        expect(response.statusCode, `${url}: ${response.body}`).to.equal(201);
        await call('DELETE', `1/sso_connections/${response.json().sso_connection.id}`, as.manager);
      }
      const refused = { 'http://idp.example.com': 'httpsRequired', 'https://10.1.2.3/': 'privateAddress', 'https://192.168.0.10': 'privateAddress', 'https://169.254.169.254/latest': 'privateAddress', 'ftp://idp.example.com': 'invalid', 'https://user:pw@idp.example.com': 'invalid' };
      for (const [url, code] of Object.entries(refused)) {
        expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...OIDC, issuer: url })), url).to.deep.equal([`issuer ${code}`]);
        expect(fieldErrors(await call('POST', '1/sso_connections', as.manager, { ...SAML, idp_metadata_xml: undefined, idp_metadata_url: url })), url).to.deep.equal([`idp_metadata_url ${code}`]);
      }
    });

    describe('outside demo mode', () => {
      const real = {} as TestApp;
      let manager: Headers;
      let organizationId: number;
      before(async function () {
        this.timeout(60_000);
        // outside demo mode nothing is seeded: an organisation and its manager of our own
        Object.assign(real, await createTestApp({ env: { DEMO: 'off', PUBLIC_URL: 'https://portal.example.com' } }));
        const organization = await real.db
          .insertInto('organizations')
          .values({ gloplaId: 'G0000009', gloplaIdName: 'test', corporationAccountName: 'Test', corporationOfficialName: 'Test', corporationAccountCode: 'T1' })
          .returning('id')
          .executeTakeFirstOrThrow();
        const admin = await real.db.insertInto('admins').values({ email: 'manager@example.com', activatedAt: new Date() }).returning('id').executeTakeFirstOrThrow();
        await real.db.insertInto('affiliations').values({ adminId: admin.id, organizationId: organization.id, role: 'manager' }).execute();
        organizationId = organization.id;
        manager = bearer(await accessToken(real.app, { sub: String(admin.id), gloplaId: 'G0000009' }));
      });
      after(async () => real.close?.());

      it('refuses loopback and private addresses however written, and http anywhere; takes https to a public host', async () => {
        const post = (issuer: string) => real.app.inject({ method: 'POST', url: `/api/v2/organizations/${organizationId}/sso_connections`, headers: manager, payload: { ...OIDC, issuer } });
        const refused = {
          'http://127.0.0.1:4000': 'httpsRequired',
          'http://idp.example.com': 'httpsRequired',
          'https://127.0.0.1': 'privateAddress',
          'https://localhost': 'privateAddress',
          'https://[::1]': 'privateAddress',
          'https://2130706433/': 'privateAddress',
          'https://0x7f.1/': 'privateAddress',
          'https://[::ffff:10.0.0.1]/': 'privateAddress',
          'https://intranet/': 'privateAddress',
          'https://idp.corp.internal/': 'privateAddress',
        };
        for (const [url, code] of Object.entries(refused)) expect(fieldErrors(await post(url)), url).to.deep.equal([`issuer ${code}`]);
        const taken = await post('https://login.example.com/tenant/v2.0');
        expect(taken.statusCode, taken.body).to.equal(201);
        expect(taken.json().sso_connection.redirect_uri).to.equal('https://portal.example.com/oidc/federation/callback');
      });
    });
  });

  describe('domains', () => {
    it('claims a domain with the TXT record to publish, lower-cased, an internationalised one as punycode', async () => {
      const response = await call('POST', '1/sso_domains', as.manager, { domain: 'Corp.Example.JP.' });
      const domain = await created(response, 'sso_domain');
      expect(domain).to.include({ domain: 'corp.example.jp', verified: false, verified_at: null, connection_id: null, require_sso: false });
      expect(domain.txt_record.name).to.equal('_corporate-admin-portal-verification.corp.example.jp');
      expect(domain.txt_record.value).to.match(/^corporate-admin-portal-verification=[\w-]{32}$/);
      expect(response.headers.etag).to.equal(domain.etag);
      const idn = await created(await call('POST', '1/sso_domains', as.manager, { domain: '例え.jp' }), 'sso_domain');
      expect(idn.domain).to.equal('xn--r8jz45g.jp');
      expect((await call('GET', '1/sso_domains', as.manager)).json().sso_domains.map((row: Json) => row.domain)).to.include.members(['corp.example.jp', 'xn--r8jz45g.jp']);
    });

    it('refuses free-mail domains (and beneath them), what is no domain, and a domain the organisation has', async () => {
      for (const free of ['gmail.com', 'yahoo.co.jp', 'docomo.ne.jp', 'Outlook.com', 'mail.yahoo.co.jp']) {
        expect(fieldErrors(await call('POST', '1/sso_domains', as.manager, { domain: free })), free).to.deep.equal(['domain freeMailDomain']);
      }
      for (const wrong of ['localhost', 'example', 'a..b.jp', '-x.example.com', 'x_y.example.com', 'exa mple.com', '192.168.0.1', `${'a'.repeat(64)}.com`, 'user@example.com']) {
        expect(fieldErrors(await call('POST', '1/sso_domains', as.manager, { domain: wrong })), wrong).to.deep.equal(['domain invalid']);
      }
      await created(await call('POST', '1/sso_domains', as.manager, { domain: 'twice.example.com' }), 'sso_domain');
      expect(fieldErrors(await call('POST', '1/sso_domains', as.manager, { domain: 'TWICE.example.com' }))).to.deep.equal(['domain taken']);
    });

    it('verifies a domain once its TXT record is published: 422 txtRecordMissing before, and with a wrong value', async () => {
      const domain = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'verify.example.com' }), 'sso_domain');
      const missing = await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager);
      expect(missing.statusCode).to.equal(422);
      expect(missing.json().errors).to.deep.equal([{ field: 'domain', code: 'txtRecordMissing', meta: domain.txt_record }]);
      expect(dns.queries).to.include(domain.txt_record.name);
      dns.publish(domain.txt_record.name, 'corporate-admin-portal-verification=someone-elses-token');
      dns.publish(domain.txt_record.name, 'v=spf1 -all');
      expect(fieldErrors(await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager))).to.deep.equal(['domain txtRecordMissing']);
      expect(await trail('sso.domainVerified')).to.have.length(0);

      dns.publish(domain.txt_record.name, domain.txt_record.value);
      const verified = await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager);
      expect(verified.statusCode, verified.body).to.equal(200);
      expect(verified.json().sso_domain).to.include({ id: domain.id, verified: true });
      expect(Date.parse(verified.json().sso_domain.verified_at)).to.be.closeTo(Date.now(), 60_000);
      expect(verified.headers.etag).to.equal(verified.json().sso_domain.etag);
      const entries = await trail('sso.domainVerified');
      expect(entries.map((entry) => [entry.targetType, entry.targetId, entry.targetLabel, entry.changes])).to.deep.equal([
        ['ssoDomain', domain.id, 'verify.example.com', { verified: { before: false, after: true } }],
      ]);
      // verified is verified: no second lookup, no second entry
      const queries = dns.queries.length;
      expect((await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager)).json().sso_domain.verified).to.equal(true);
      expect(dns.queries.length).to.equal(queries);
      expect(await trail('sso.domainVerified')).to.have.length(1);
    });

    it('answers dnsLookupFailed when the resolver fails, leaving the domain pending', async () => {
      const domain = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'servfail.example.com' }), 'sso_domain');
      dns.fail(domain.txt_record.name);
      const response = await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager);
      expect(response.statusCode).to.equal(422);
      expect(response.json().errors).to.deep.equal([{ field: 'domain', code: 'dnsLookupFailed', meta: { dns_error: 'ESERVFAIL' } }]);
      expect((await call('GET', '1/sso_domains', as.manager)).json().sso_domains.find((row: Json) => row.id === domain.id).verified).to.equal(false);
    });

    it('lets two organisations claim a pending domain, only the first to verify gets it, and refuses it to the other from then on', async () => {
      const mine = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'contested.example.com' }), 'sso_domain');
      const theirs = await created(await call('POST', '2/sso_domains', as.otherManager, { domain: 'contested.example.com' }), 'sso_domain');
      expect(theirs.txt_record.value).to.not.equal(mine.txt_record.value);
      dns.publish(mine.txt_record.name, mine.txt_record.value);
      dns.publish(theirs.txt_record.name, theirs.txt_record.value);
      expect((await call('POST', `1/sso_domains/${mine.id}/verify`, as.manager)).statusCode).to.equal(200);
      expect(fieldErrors(await call('POST', `2/sso_domains/${theirs.id}/verify`, as.otherManager))).to.deep.equal(['domain taken']);
      expect(fieldErrors(await call('POST', '2/sso_domains', as.otherManager, { domain: 'Contested.example.com' }))).to.deep.equal(['domain taken']);
      // G0000002 cannot verify G0000001's domain through its own path either
      expect((await call('POST', `2/sso_domains/${mine.id}/verify`, as.otherManager)).statusCode).to.equal(404);
    });

    it('routes a domain to one of the organisation connections only, audited, with If-Match', async () => {
      const domain = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'route.example.com' }), 'sso_domain');
      const connection = await created(await call('POST', '1/sso_connections', as.manager, OIDC), 'sso_connection');
      const theirs = await created(await call('POST', '2/sso_connections', as.otherManager, OIDC), 'sso_connection');
      expect(fieldErrors(await call('PATCH', `1/sso_domains/${domain.id}`, as.manager, { connection_id: theirs.id }))).to.deep.equal(['connection_id notFound']);
      const routed = await call('PATCH', `1/sso_domains/${domain.id}`, { ...as.manager, 'if-match': domain.etag }, { connection_id: connection.id });
      expect(routed.statusCode, routed.body).to.equal(200);
      expect(routed.json().sso_domain.connection_id).to.equal(connection.id);
      expect((await call('PATCH', `1/sso_domains/${domain.id}`, { ...as.manager, 'if-match': domain.etag }, { connection_id: null })).statusCode).to.equal(412);
      const [entry] = (await trail('sso.domainChanged')).filter((row) => row.targetId === domain.id);
      expect(entry!.changes).to.deep.equal({ connectionId: { before: null, after: connection.id } });
      // deleting the connection routes the domain by default again
      await call('DELETE', `1/sso_connections/${connection.id}`, as.manager);
      expect((await call('GET', '1/sso_domains', as.manager)).json().sso_domains.find((row: Json) => row.id === domain.id).connection_id).to.equal(null);
    });

    it('refuses requiring single sign-on without a session signed in through it within 10 minutes (403), then without a verified domain and an active connection (422)', async () => {
      const domain = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'enforced.example.com' }), 'sso_domain');
      for (const session of [as.manager, as.federatedLongAgo]) {
        const refused = await call('PATCH', `1/sso_domains/${domain.id}`, session, { require_sso: true });
        expect(refused.statusCode).to.equal(403);
        expect(refused.json()).to.deep.equal({ error: 'federated_session_required' });
      }
      expect(fieldErrors(await call('PATCH', `1/sso_domains/${domain.id}`, as.federated, { require_sso: true }))).to.deep.equal(['require_sso notVerified']);
      dns.publish(domain.txt_record.name, domain.txt_record.value);
      expect((await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager)).statusCode).to.equal(200);
      // no connection on: nobody at the domain could sign in at all
      await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('organizationId', '=', 1).execute();
      expect(fieldErrors(await call('PATCH', `1/sso_domains/${domain.id}`, as.federated, { require_sso: true }))).to.deep.equal(['require_sso connectionNotOn']);
      const connection = await created(await call('POST', '1/sso_connections', as.manager, OIDC), 'sso_connection');
      expect((await call('PATCH', `1/sso_connections/${connection.id}`, as.manager, { state: 'on' })).statusCode).to.equal(200);

      // a session through another connection is not the domain's
      expect((await call('PATCH', `1/sso_domains/${domain.id}`, as.federated, { require_sso: true })).json()).to.deep.equal({ error: 'federated_session_required' });
      const required = await call('PATCH', `1/sso_domains/${domain.id}`, await federatedThrough(connection.id), { require_sso: true });
      expect(required.statusCode, required.body).to.equal(200);
      expect(required.json().sso_domain).to.include({ require_sso: true, connection_id: null });
      // moving a required domain to another connection needs such a session too; turning the requirement off does not
      const other = await created(await call('POST', '1/sso_connections', as.manager, OIDC), 'sso_connection');
      expect((await call('PATCH', `1/sso_domains/${domain.id}`, as.manager, { connection_id: other.id })).statusCode).to.equal(403);
      const off = await call('PATCH', `1/sso_domains/${domain.id}`, as.manager, { require_sso: false });
      expect(off.json().sso_domain.require_sso).to.equal(false);
      const entries = (await trail('sso.domainChanged')).filter((row) => row.targetId === domain.id).map((row) => row.changes);
      expect(entries).to.deep.equal([{ requireSso: { before: false, after: true } }, { requireSso: { before: true, after: false } }]);
    });

    it('stops requiring single sign-on for the domains a deleted connection signed in, in the trail', async () => {
      await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('organizationId', '=', 1).execute();
      const domain = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'orphaned.example.com' }), 'sso_domain');
      dns.publish(domain.txt_record.name, domain.txt_record.value);
      await call('POST', `1/sso_domains/${domain.id}/verify`, as.manager);
      const connection = await created(await call('POST', '1/sso_connections', as.manager, OIDC), 'sso_connection');
      await call('PATCH', `1/sso_connections/${connection.id}`, as.manager, { state: 'on' });
      expect((await call('PATCH', `1/sso_domains/${domain.id}`, await federatedThrough(connection.id), { require_sso: true })).statusCode).to.equal(200);
      expect((await call('DELETE', `1/sso_connections/${connection.id}`, as.manager)).statusCode).to.equal(204);
      expect((await call('GET', '1/sso_domains', as.manager)).json().sso_domains.find((row: Json) => row.id === domain.id).require_sso).to.equal(false);
      const last = (await trail('sso.domainChanged')).filter((row) => row.targetId === domain.id).at(-1);
      expect(last!.changes).to.deep.equal({ requireSso: { before: true, after: false } });
    });

    it('deletes a domain with If-Match, in the trail; members and other organisations are refused every domain call', async () => {
      const domain = await created(await call('POST', '1/sso_domains', as.manager, { domain: 'gone.example.com' }), 'sso_domain');
      for (const [method, path, payload] of [
        ['GET', '1/sso_domains'],
        ['POST', '1/sso_domains', { domain: 'x.example.com' }],
        ['POST', `1/sso_domains/${domain.id}/verify`],
        ['PATCH', `1/sso_domains/${domain.id}`, { require_sso: false }],
        ['DELETE', `1/sso_domains/${domain.id}`],
      ] as const) {
        expect((await call(method, path, as.member, payload)).statusCode, `member ${method} ${path}`).to.equal(403);
        expect((await call(method, path, as.otherManager, payload)).statusCode, `G0000002's manager ${method} ${path}`).to.equal(403);
      }
      expect((await call('DELETE', `2/sso_domains/${domain.id}`, as.otherManager)).statusCode).to.equal(404);
      expect((await call('DELETE', `1/sso_domains/${domain.id}`, { ...as.manager, 'if-match': '"stale"' })).statusCode).to.equal(412);
      expect((await call('DELETE', `1/sso_domains/${domain.id}`, { ...as.manager, 'if-match': domain.etag })).statusCode).to.equal(204);
      const deletedEntries = (await trail('sso.domainDeleted')).filter((row) => row.targetId === domain.id);
      expect(deletedEntries.map((row) => row.targetLabel)).to.deep.equal(['gone.example.com']);
      expect((await trail('sso.domainAdded')).some((row) => row.targetId === domain.id)).to.equal(true);
    });
  });

  describe('limits', () => {
    it('answers 409 limit_reached past 20 connections and 50 domains of an organisation', async () => {
      const count = async (table: 'ssoConnections' | 'ssoDomains') =>
        Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('organizationId', '=', 2).executeTakeFirstOrThrow()).n);
      while ((await count('ssoConnections')) < 20) await created(await call('POST', '2/sso_connections', as.otherManager, SAML), 'sso_connection');
      const connection = await call('POST', '2/sso_connections', as.otherManager, SAML);
      expect(connection.statusCode).to.equal(409);
      expect(connection.json()).to.deep.equal({ error: 'limit_reached' });
      for (let index = await count('ssoDomains'); index < 50; index += 1) await created(await call('POST', '2/sso_domains', as.otherManager, { domain: `d${index}.example.org` }), 'sso_domain');
      const domain = await call('POST', '2/sso_domains', as.otherManager, { domain: 'one-too-many.example.org' });
      expect(domain.statusCode).to.equal(409);
      expect(domain.json()).to.deep.equal({ error: 'limit_reached' });
    });
  });
});
