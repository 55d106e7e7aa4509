/**
 * Single sign-on (screens/sso.json; issue 45), managers only: the connections (protocol, state, what to register at
 * the identity provider), adding one per protocol, turning it on, deleting it after asking; the verified domains
 * (verified or not, the TXT record to publish, the connection it routes to), adding one, Verify's refusals as
 * messages, and requiring single sign-on refused without a recent single-sign-on session.
 */
// a DOM before React loads: React's change events choose their implementation from the document it finds then
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
// loaded here first: the dialog's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/screen/ModalForm.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse, settle } from '../../api/harness.js';
import { englishI18n } from '../../support/i18n.js';
import { MANAGER, renderScreen } from './support.js';

const CONNECTIONS = 'GET /api/v2/organizations/1/sso_connections';
const DOMAINS = 'GET /api/v2/organizations/1/sso_domains';
const OIDC_ID = '11111111-1111-4111-8111-111111111111';
const SAML_ID = '22222222-2222-4222-8222-222222222222';
const DOMAIN_ID = '33333333-3333-4333-8333-333333333333';
const VERIFIED_ID = '44444444-4444-4444-8444-444444444444';

const wireConnection = (overrides: Record<string, unknown> = {}) => ({
  id: OIDC_ID,
  protocol: 'oidc',
  name: 'Entra ID',
  state: 'draft',
  issuer: 'https://login.example.com/tenant/v2.0',
  client_id: 'portal',
  client_secret_set: true,
  idp_metadata_url: null,
  idp_metadata_xml: null,
  signing_certificates: [],
  attribute_mapping: { email: 'email', family_name: 'family_name', given_name: 'given_name' },
  trust_idp_mfa: false,
  jit_provisioning: false,
  idp_initiated: false,
  redirect_uri: 'https://portal.example.com/oidc/federation/callback',
  sp_entity_id: null,
  acs_url: null,
  sp_metadata_url: null,
  created_at: '2026-11-28T00:00:00.000Z',
  updated_at: '2026-11-28T00:00:00.000Z',
  etag: '"c1"',
  ...overrides,
});
const SAML = wireConnection({
  id: SAML_ID,
  protocol: 'saml',
  name: 'Okta',
  state: 'on',
  issuer: null,
  client_id: null,
  client_secret_set: false,
  idp_metadata_url: 'https://okta.example.com/metadata',
  redirect_uri: null,
  sp_entity_id: `https://portal.example.com/saml/${SAML_ID}`,
  acs_url: `https://portal.example.com/saml/${SAML_ID}/acs`,
  sp_metadata_url: `https://portal.example.com/saml/${SAML_ID}/metadata`,
  etag: '"c2"',
});
const wireDomain = (overrides: Record<string, unknown> = {}) => ({
  id: DOMAIN_ID,
  domain: 'example.co.jp',
  verified: false,
  verified_at: null,
  txt_record: { name: '_corporate-admin-portal.example.co.jp', value: 'corporate-admin-portal-verification=abc123' },
  connection_id: null,
  require_sso: false,
  created_at: '2026-11-28T00:00:00.000Z',
  etag: '"d1"',
  ...overrides,
});
const VERIFIED = wireDomain({ id: VERIFIED_ID, domain: 'corp.example.com', verified: true, verified_at: '2026-11-28T00:00:00.000Z', connection_id: SAML_ID, etag: '"d2"' });

const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never);

/** A flash as the reader sees it: its words in English with its values. */
async function flashText(store: { getState(): unknown }): Promise<string[]> {
  const i18n = await englishI18n();
  return flashes(store).map((message) => i18n.t(message.messageKey, message.params));
}

async function type(dialog: HTMLElement, label: RegExp, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
  await settle();
}

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('screens: Single sign-on (issue 45)', () => {
  afterEach(cleanup);

  it("the connections: protocol, state and what the customer registers at the IdP (OIDC's redirect URI; SAML's entity ID, ACS URL and metadata link)", async () => {
    const { view } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: { [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [wireConnection(), SAML] }), [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }) },
    });
    const table = await view.findByRole('table', { name: 'Single sign-on connections' });
    const [oidc, saml] = rowsOf(table);
    within(oidc!).getByText('Entra ID');
    within(oidc!).getByText('OpenID Connect');
    within(oidc!).getByText('Draft');
    within(oidc!).getByText('Redirect URI: https://portal.example.com/oidc/federation/callback');
    within(oidc!).getByRole('button', { name: 'Turn on Entra ID' });
    expect(within(oidc!).queryByRole('button', { name: 'Pause Entra ID' })).to.equal(null);
    within(saml!).getByText('SAML 2.0');
    within(saml!).getByText('On');
    within(saml!).getByText(`SP entity ID: https://portal.example.com/saml/${SAML_ID}`);
    within(saml!).getByText(`ACS URL: https://portal.example.com/saml/${SAML_ID}/acs`);
    expect(within(saml!).getByRole('link', { name: 'Download SP metadata' }).getAttribute('href')).to.equal(`https://portal.example.com/saml/${SAML_ID}/metadata`);
    within(saml!).getByRole('button', { name: 'Pause Okta' });
    await view.findByText('No domains yet.');
  });

  it("a SAML connection's IdP signing certificates, each with its expiry and fingerprint (two during a rollover)", async () => {
    const certificates = [
      { not_after: '2027-12-01T03:00:00.000Z', fingerprint: 'AA:BB' },
      { not_after: '2026-12-18T03:00:00.000Z', fingerprint: 'CC:DD' },
    ];
    const { view } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: { [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [{ ...SAML, signing_certificates: certificates }] }), [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }) },
    });
    const [saml] = rowsOf(await view.findByRole('table', { name: 'Single sign-on connections' }));
    const shown = within(saml!).getAllByText(/^IdP signing certificate: expires /).map((element) => element.textContent);
    expect(shown).to.have.length(2);
    expect(shown[0]).to.match(/2027.*\(SHA-256 AA:BB\)$/);
    expect(shown[1]).to.match(/2026.*\(SHA-256 CC:DD\)$/);
  });

  it('Add an OpenID Connect connection: the form with the default claims; Add posts the protocol and the settings, flashes and reads the list again', async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: (loads += 1) === 1 ? [] : [wireConnection()] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }),
        'POST /api/v2/organizations/1/sso_connections': () => jsonResponse(201, { sso_connection: wireConnection() }),
      },
    });
    await view.findByText('No connections yet.');
    fireEvent.click(view.getByRole('button', { name: 'Add an OpenID Connect connection' }));
    const dialog = await view.findByRole('dialog', { name: 'Add an OpenID Connect connection' });
    await within(dialog).findByLabelText(/^Name/);
    expect(((await within(dialog).findByLabelText(/^Attribute for the e-mail address/)) as HTMLInputElement).value).to.equal('email');
    const trust = within(dialog).getByLabelText(/^Trust the identity provider's multi-factor sign-in/) as HTMLInputElement;
    expect([trust.type, trust.checked]).to.deep.equal(['checkbox', false]);
    // just-in-time members: a check box, off by default; IdP-initiated sign-in is SAML's only
    const jit = within(dialog).getByLabelText(/^Create members at their first sign-in/) as HTMLInputElement;
    expect([jit.type, jit.checked]).to.deep.equal(['checkbox', false]);
    expect(within(dialog).queryByLabelText(/^Accept sign-ins started at the identity provider/)).to.equal(null);
    await type(dialog, /^Name/, 'Entra ID');
    await type(dialog, /^Issuer URL/, 'https://login.example.com/tenant/v2.0');
    await type(dialog, /^Client ID/, 'portal');
    await type(dialog, /^Client secret/, 's3cret');
    fireEvent.click(trust);
    await settle();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/sso_connections')[0]!.args[1])).to.deep.equal({
      protocol: 'oidc',
      name: 'Entra ID',
      issuer: 'https://login.example.com/tenant/v2.0',
      client_id: 'portal',
      client_secret: 's3cret',
      attribute_mapping: { email: 'email', family_name: 'family_name', given_name: 'given_name' },
      trust_idp_mfa: true,
      jit_provisioning: false,
    });
    expect(flashes(store).map((message) => message.messageKey)).to.deep.equal(['sso.connection.added']);
    await view.findByText('Redirect URI: https://portal.example.com/oidc/federation/callback');
  });

  it("Add a SAML 2.0 connection: the metadata as XML or a URL, not both; the server's field errors stay in the form", async () => {
    const { view } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }),
        'POST /api/v2/organizations/1/sso_connections': () => jsonResponse(422, { errors: [{ field: 'idp_metadata_url', code: 'privateAddress', meta: {} }] }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Add a SAML 2.0 connection' }));
    const dialog = await view.findByRole('dialog', { name: 'Add a SAML 2.0 connection' });
    await within(dialog).findByLabelText(/^Name/);
    expect(within(dialog).getByLabelText(/^IdP metadata \(XML\)/).tagName).to.equal('TEXTAREA');
    expect(((await within(dialog).findByLabelText(/^Attribute for the e-mail address/)) as HTMLInputElement).value).to.equal('nameID');
    for (const option of [/^Create members at their first sign-in/, /^Accept sign-ins started at the identity provider/]) {
      const box = within(dialog).getByLabelText(option) as HTMLInputElement;
      expect([box.type, box.checked]).to.deep.equal(['checkbox', false]);
    }
    await type(dialog, /^Name/, 'Okta');
    await type(dialog, /^IdP metadata \(XML\)/, '<EntityDescriptor/>');
    await type(dialog, /^IdP metadata URL/, 'https://10.0.0.1/metadata');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findAllByText('Enter the IdP metadata either as XML or as a URL, not both.');
    await type(dialog, /^IdP metadata \(XML\)/, '');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findByText('Please enter a public URL.');
  });

  it("Test connection: POST …/test, the answer's URL opened in a new window (no opener) and a message; while incomplete (422) what to do", async () => {
    const opened: unknown[][] = [];
    const original = globalThis.open;
    globalThis.open = ((...args: unknown[]) => (opened.push(args), null)) as typeof globalThis.open;
    try {
      let answers = 0;
      const testUrl = 'https://portal.example.com/oidc/connection_test/ticket';
      const { view, calls, store } = await renderScreen('sso', {
        signedIn: MANAGER,
        routes: {
          [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [wireConnection()] }),
          [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }),
          [`POST /api/v2/organizations/1/sso_connections/${OIDC_ID}/test`]: () =>
            (answers += 1) === 1 ? jsonResponse(201, { test_url: testUrl, expires_at: '2026-11-28T00:05:00.000Z' }) : jsonResponse(422, { errors: [{ field: 'client_secret', code: 'blank', meta: {} }] }),
        },
      });
      fireEvent.click(await view.findByRole('button', { name: 'Test connection Entra ID' }));
      await waitFor(() => expect(opened).to.deep.equal([[testUrl, '_blank', 'noopener']]));
      expect(calls('POST', `/api/v2/organizations/1/sso_connections/${OIDC_ID}/test`)).to.have.length(1);
      expect(await flashText(store)).to.deep.equal([
        'The test of Entra ID opened in a new window: sign in at the identity provider there to see what it sends. Nobody is signed in by the test. If no window opened, allow pop-ups for this site and try again.',
      ]);
      fireEvent.click(view.getByRole('button', { name: 'Test connection Entra ID' }));
      await waitFor(async () => expect((await flashText(store)).at(-1)).to.contain('Entra ID cannot be tested yet'));
      expect(opened).to.have.length(1);
    } finally {
      globalThis.open = original;
    }
  });

  it('Turn on: PATCH state on, on the version shown; while incomplete (422) a message says what to do', async () => {
    const { view, calls, store } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [wireConnection()] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }),
        [`PATCH /api/v2/organizations/1/sso_connections/${OIDC_ID}`]: () => jsonResponse(422, { errors: [{ field: 'client_secret', code: 'blank', meta: {} }] }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Turn on Entra ID' }));
    await waitFor(() => expect(flashes(store)).to.have.length(1));
    const patch = calls('PATCH', `/api/v2/organizations/1/sso_connections/${OIDC_ID}`)[0]!.args[1]!;
    expect(bodyOf(patch)).to.deep.equal({ state: 'on' });
    expect((patch.headers as Record<string, string>)['if-match']).to.equal('"c1"');
    expect(await flashText(store)).to.deep.equal(["Entra ID cannot be turned on yet: its settings are incomplete. Edit it and fill in the identity provider's details."]);
  });

  it("Edit: the form filled with the connection's settings (never a client secret); Save sends only the settings, on the version shown", async () => {
    const { view, calls, store } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [wireConnection()] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }),
        [`PATCH /api/v2/organizations/1/sso_connections/${OIDC_ID}`]: () => jsonResponse(200, { sso_connection: wireConnection({ name: 'Entra ID (HQ)', etag: '"c3"' }) }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit Entra ID' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit the connection' });
    expect(((await within(dialog).findByLabelText(/^Issuer URL/)) as HTMLInputElement).value).to.equal('https://login.example.com/tenant/v2.0');
    expect(((await within(dialog).findByLabelText(/^New client secret/)) as HTMLInputElement).value).to.equal('');
    await type(dialog, /^Name/, 'Entra ID (HQ)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const patch = calls('PATCH', `/api/v2/organizations/1/sso_connections/${OIDC_ID}`)[0]!.args[1]!;
    expect(bodyOf(patch)).to.deep.equal({
      name: 'Entra ID (HQ)',
      issuer: 'https://login.example.com/tenant/v2.0',
      client_id: 'portal',
      attribute_mapping: { email: 'email', family_name: 'family_name', given_name: 'given_name' },
      trust_idp_mfa: false,
      jit_provisioning: false,
    });
    expect((patch.headers as Record<string, string>)['if-match']).to.equal('"c1"');
    expect(flashes(store).map((message) => message.messageKey)).to.deep.equal(['sso.connection.saved']);
  });

  it("Delete a connection: asks first ('Delete now'), then DELETE with If-Match", async () => {
    const { view, calls, store } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [SAML] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [] }),
        [`DELETE /api/v2/organizations/1/sso_connections/${SAML_ID}`]: () => new Response(null, { status: 204 }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Delete Okta' }));
    const dialog = await view.findByRole('dialog', { name: 'Delete the connection' });
    within(dialog).getByText('Delete the connection Okta? Admins can no longer sign in through it, and its domains stop requiring single sign-on.');
    expect(calls('DELETE', `/api/v2/organizations/1/sso_connections/${SAML_ID}`)).to.have.length(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete now' }));
    await waitFor(() => expect(flashes(store).map((message) => message.messageKey)).to.deep.equal(['sso.connection.deleted']));
    expect((calls('DELETE', `/api/v2/organizations/1/sso_connections/${SAML_ID}`)[0]!.args[1]!.headers as Record<string, string>)['if-match']).to.equal('"c2"');
  });

  it('the domains: verified or not, the TXT record to publish with its copy buttons, the connection it routes to and whether single sign-on is required', async () => {
    const { view } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: { [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [wireConnection(), SAML] }), [DOMAINS]: () => jsonResponse(200, { sso_domains: [wireDomain(), VERIFIED] }) },
    });
    const table = await view.findByRole('table', { name: 'E-mail domains for single sign-on' });
    const [unverified, verified] = rowsOf(table);
    within(unverified!).getByText('example.co.jp');
    within(unverified!).getByText('Not verified');
    within(unverified!).getByText('TXT record name: _corporate-admin-portal.example.co.jp');
    within(unverified!).getByText('TXT record value: corporate-admin-portal-verification=abc123');
    within(unverified!).getByRole('button', { name: 'Copy the TXT record name of example.co.jp' });
    within(unverified!).getByRole('button', { name: 'Copy the TXT record value of example.co.jp' });
    within(unverified!).getByText('Default: the connection that is on');
    within(unverified!).getByRole('button', { name: 'Verify example.co.jp' });
    expect(within(unverified!).queryByRole('button', { name: /^Require single sign-on/ })).to.equal(null);
    within(verified!).getByText('Verified');
    within(verified!).getByText('Okta');
    expect(within(verified!).queryByText('Entra ID')).to.equal(null);
    within(verified!).getByText('Not required');
    within(verified!).getByRole('button', { name: 'Require single sign-on for addresses at corp.example.com' });
    expect(within(verified!).queryByRole('button', { name: 'Verify corp.example.com' })).to.equal(null);
  });

  it("a domain's connection: 'Change' offers the organisation's connections after the default; Save sends connection_id (null: the default) on the version shown", async () => {
    let answer = 0;
    const { view, calls, store } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [wireConnection(), SAML] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [VERIFIED] }),
        [`PATCH /api/v2/organizations/1/sso_domains/${VERIFIED_ID}`]: () => jsonResponse(200, { sso_domain: (answer += 1) === 1 ? { ...VERIFIED, connection_id: OIDC_ID } : VERIFIED }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Change the connection of corp.example.com' }));
    const dialog = await view.findByRole('dialog', { name: 'The connection this domain signs in through' });
    const select = (await within(dialog).findByLabelText(/^Connection/)) as HTMLSelectElement;
    expect(Array.from(select.options).map((option) => option.textContent)).to.deep.equal(["The organization's only active connection (default)", 'Entra ID', 'Okta']);
    expect(select.selectedOptions[0]!.textContent).to.equal('Okta');
    fireEvent.change(select, { target: { value: '1' } });
    await settle();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const patch = calls('PATCH', `/api/v2/organizations/1/sso_domains/${VERIFIED_ID}`)[0]!.args[1]!;
    expect(bodyOf(patch)).to.deep.equal({ connection_id: OIDC_ID });
    expect((patch.headers as Record<string, string>)['if-match']).to.equal('"d2"');
    expect(await flashText(store)).to.deep.equal(['The connection of corp.example.com has been saved.']);
    // the default: null
    fireEvent.click(await view.findByRole('button', { name: 'Change the connection of corp.example.com' }));
    const again = await view.findByRole('dialog', { name: 'The connection this domain signs in through' });
    fireEvent.change(await within(again).findByLabelText(/^Connection/), { target: { value: '0' } });
    await settle();
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls('PATCH', `/api/v2/organizations/1/sso_domains/${VERIFIED_ID}`)).to.have.length(2));
    expect(bodyOf(calls('PATCH', `/api/v2/organizations/1/sso_domains/${VERIFIED_ID}`)[1]!.args[1])).to.deep.equal({ connection_id: null });
  });

  it("Add a domain: the form checks the domain's shape, the server's refusal (free mail) stays on the field, and an added one is listed", async () => {
    let answer = 0;
    const { view, calls } = await renderScreen('sso', {
      signedIn: MANAGER,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: answer < 2 ? [] : [wireDomain()] }),
        'POST /api/v2/organizations/1/sso_domains': () =>
          (answer += 1) === 1 ? jsonResponse(422, { errors: [{ field: 'domain', code: 'freeMailDomain', meta: {} }] }) : jsonResponse(201, { sso_domain: wireDomain() }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Add a domain' }));
    const dialog = await view.findByRole('dialog', { name: 'Add a domain' });
    await within(dialog).findByLabelText(/^Domain/);
    await type(dialog, /^Domain/, 'someone@example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findAllByText('Please enter a domain such as example.co.jp (the part after @).');
    expect(calls('POST', '/api/v2/organizations/1/sso_domains')).to.have.length(0);
    await type(dialog, /^Domain/, 'gmail.com');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findByText('Free mail domains cannot be used.');
    await type(dialog, /^Domain/, 'example.co.jp');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/sso_domains')[1]!.args[1])).to.deep.equal({ domain: 'example.co.jp' });
    await view.findByText('TXT record value: corporate-admin-portal-verification=abc123');
  });

  for (const [code, message] of [
    ['txtRecordMissing', 'The TXT record was not found. Publish corporate-admin-portal-verification=abc123 at _corporate-admin-portal.example.co.jp at your DNS provider, then try again (it may take a while to be visible).'],
    ['dnsLookupFailed', 'The DNS lookup of this domain failed. Please try again later.'],
    ['taken', 'example.co.jp has already been verified by another organization.'],
  ] as const) {
    it(`Verify refused (422 ${code}): the message says why`, async () => {
      const { view, calls, store } = await renderScreen('sso', {
        signedIn: MANAGER,
        routes: {
          [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [] }),
          [DOMAINS]: () => jsonResponse(200, { sso_domains: [wireDomain()] }),
          [`POST /api/v2/organizations/1/sso_domains/${DOMAIN_ID}/verify`]: () => jsonResponse(422, { errors: [{ field: 'domain', code, meta: {} }] }),
        },
      });
      fireEvent.click(await view.findByRole('button', { name: 'Verify example.co.jp' }));
      await waitFor(() => expect(flashes(store)).to.have.length(1));
      expect(calls('POST', `/api/v2/organizations/1/sso_domains/${DOMAIN_ID}/verify`)).to.have.length(1);
      expect(flashes(store)[0]!.kind).to.equal('error');
      expect(await flashText(store)).to.deep.equal([message]);
    });
  }

  it('Require single sign-on: asks first; refused without a recent single-sign-on session (403 federated_session_required), the page says so and stays', async () => {
    const { view, calls, store, navigate } = await renderScreen('sso', {
      signedIn: MANAGER,
      followNavigation: true,
      routes: {
        [CONNECTIONS]: () => jsonResponse(200, { sso_connections: [SAML] }),
        [DOMAINS]: () => jsonResponse(200, { sso_domains: [VERIFIED] }),
        [`PATCH /api/v2/organizations/1/sso_domains/${VERIFIED_ID}`]: () => jsonResponse(403, { error: 'federated_session_required' }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Require single sign-on for addresses at corp.example.com' }));
    const dialog = await view.findByRole('dialog', { name: 'Require single sign-on for addresses at this domain' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Require' }));
    await waitFor(() => expect(flashes(store)).to.have.length(1));
    const patch = calls('PATCH', `/api/v2/organizations/1/sso_domains/${VERIFIED_ID}`)[0]!.args[1]!;
    expect(bodyOf(patch)).to.deep.equal({ require_sso: true });
    expect((patch.headers as Record<string, string>)['if-match']).to.equal('"d2"');
    expect(await flashText(store)).to.deep.equal(['To require single sign-on, first sign in through single sign-on (within the last 10 minutes), so that you know it works.']);
    expect(navigate!.called, 'not sent to sign-in as other 403s are').to.equal(false);
  });
});
