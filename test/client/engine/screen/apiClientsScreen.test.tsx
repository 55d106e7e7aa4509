/**
 * API access (screens/api-clients.json; issue 46), managers only: the organisation's API clients (client ID, scopes,
 * created by whom, last use, expiry), adding one (the scopes the API offers as choices) with its secret shown once in
 * a panel until Done, rotating a secret and revoking a client after asking.
 */
// a DOM before React loads: React's change events choose their implementation from the document it finds then
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
// loaded here first: the dialog's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/screen/ModalForm.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse, settle } from '../../api/harness.js';
import { MANAGER, renderScreen } from './support.js';

const LIST = 'GET /api/v2/organizations/1/api_clients';
const ID = '55555555-5555-4555-8555-555555555555';
const SCOPES = ['subscriptions:read', 'subscriptions:write', 'learners:read', 'learners:write', 'contacts:read', 'audit:read'];
const SECRET = 'the-secret-shown-once-0123456789abcdefghijkl';

const wireClient = (overrides: Record<string, unknown> = {}) => ({
  id: ID,
  client_id: 'apic_0123456789abcdef01234567',
  name: 'HR sync',
  scopes: ['learners:read', 'learners:write'],
  expires_at: null,
  expires_on: null,
  previous_secret_expires_at: null,
  auth_method: 'client_secret_basic',
  public_jwks: null,
  created_by: { admin_id: 1, email: 'manager@example.com' },
  created_at: '2026-11-28T00:00:00.000Z',
  last_used_at: null,
  last_used_address: null,
  etag: '"k1"',
  ...overrides,
});

const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never).map((message) => message.messageKey);
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('screens: API access (issue 46)', () => {
  afterEach(cleanup);

  it('the clients: client ID, scopes, who made it, its last use (or never) and expiry', async () => {
    const used = wireClient({ id: '66666666-6666-4666-8666-666666666666', name: 'LMS', last_used_at: '2026-11-28T01:00:00.000Z', last_used_address: '203.0.113.7', expires_on: '2027-03-31' });
    const { view } = await renderScreen('api-clients', { signedIn: MANAGER, routes: { [LIST]: () => jsonResponse(200, { api_clients: [wireClient(), used], scopes: SCOPES }) } });
    const [hr, lms] = rowsOf(await view.findByRole('table', { name: 'API clients' }));
    within(hr!).getByText('HR sync');
    within(hr!).getByText('apic_0123456789abcdef01234567');
    within(hr!).getByText('learners:write');
    within(hr!).getByText(/by manager@example\.com$/);
    within(hr!).getByText('Never used');
    within(hr!).getByText('No expiry');
    within(lms!).getByText(/from 203\.0\.113\.7$/);
    within(lms!).getByText(/^Works until the end of .*2027/);
    expect(within(hr!).queryByText('Signs in with its key')).to.equal(null);
  });

  it('Add an API client: the scopes the API offers; the secret shown once with Copy until Done', async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('api-clients', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { api_clients: (loads += 1) === 1 ? [] : [wireClient()], scopes: SCOPES }),
        'POST /api/v2/organizations/1/api_clients': () => jsonResponse(201, { api_client: wireClient(), client_secret: SECRET }),
      },
    });
    await view.findByText('No API clients yet.');
    fireEvent.click(view.getByRole('button', { name: 'Add an API client' }));
    const dialog = await view.findByRole('dialog', { name: 'Add an API client' });
    fireEvent.change(await within(dialog).findByLabelText(/^Name/), { target: { value: 'HR sync' } });
    await settle();
    for (const scope of ['learners:read', 'learners:write']) fireEvent.click(within(dialog).getByLabelText(scope));
    await settle();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/api_clients')[0]!.args[1])).to.deep.include({ name: 'HR sync', scopes: ['learners:read', 'learners:write'] });
    expect(flashes(store)).to.deep.equal(['apiClients.added']);
    await view.findByText(SECRET);
    view.getByRole('button', { name: 'Copy the secret' });
    fireEvent.click(view.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByText(SECRET)).to.equal(null));
  });

  it('Rotate secret and Revoke ask first, then call with If-Match; the new secret is shown once', async () => {
    const { view, calls, store } = await renderScreen('api-clients', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { api_clients: [wireClient()], scopes: SCOPES }),
        [`POST /api/v2/organizations/1/api_clients/${ID}/rotate_secret`]: () => jsonResponse(200, { api_client: wireClient(), client_secret: SECRET }),
        [`DELETE /api/v2/organizations/1/api_clients/${ID}`]: () => new Response(null, { status: 204 }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Rotate the secret of HR sync' }));
    const rotate = await view.findByRole('dialog', { name: 'Rotate the secret?' });
    expect(calls('POST', `/api/v2/organizations/1/api_clients/${ID}/rotate_secret`)).to.have.length(0);
    fireEvent.click(within(rotate).getByRole('button', { name: 'Rotate secret' }));
    await view.findByText(SECRET);
    expect((calls('POST', `/api/v2/organizations/1/api_clients/${ID}/rotate_secret`)[0]!.args[1]!.headers as Record<string, string>)['if-match']).to.equal('"k1"');

    fireEvent.click(view.getByRole('button', { name: 'Revoke HR sync' }));
    const revoke = await view.findByRole('dialog', { name: 'Revoke the API client?' });
    fireEvent.click(within(revoke).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(flashes(store)).to.include('apiClients.revoked'));
    expect((calls('DELETE', `/api/v2/organizations/1/api_clients/${ID}`)[0]!.args[1]!.headers as Record<string, string>)['if-match']).to.equal('"k1"');
  });
});
