/**
 * Webhooks (screens/webhooks.json; issue 46 item 5), managers only: the endpoints (URL, events, sending or turned
 * off), adding one with its events chosen from the list the API answers, its signing secret shown once with Copy
 * until Done, a test event, and an endpoint's deliveries (event, status, answer, attempts) with Resend.
 */
// a DOM before React loads: React's change events choose their implementation from the document it finds then
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
// loaded here first: the dialog's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/screen/ModalForm.js';
import { WEBHOOK_EVENT_TYPES } from '../../../../src/common/webhookEvents.js';
import { bodyOf, jsonResponse, settle } from '../../api/harness.js';
import { MANAGER, renderScreen } from './support.js';

const ENDPOINTS = 'GET /api/v2/organizations/1/webhook_endpoints';
const ENDPOINT_ID = '11111111-1111-4111-8111-111111111111';
const DELIVERY_ID = '22222222-2222-4222-8222-222222222222';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const wireEndpoint = (overrides: Record<string, unknown> = {}) => ({
  id: ENDPOINT_ID,
  url: 'https://hr.example.com/hooks',
  events: ['corporate_subscription.created', 'learners.updated'],
  disabled_at: null,
  created_at: '2026-11-28T00:00:00.000Z',
  updated_at: '2026-11-28T00:00:00.000Z',
  etag: '"e1"',
  ...overrides,
});
const listOf = (...endpoints: unknown[]) => jsonResponse(200, { webhook_endpoints: endpoints, event_types: [...WEBHOOK_EVENT_TYPES] });
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('screens: Webhooks (issue 46)', () => {
  afterEach(cleanup);

  it('the endpoints: URL, events, sending or turned off, and the actions of each', async () => {
    const off = wireEndpoint({ id: '33333333-3333-4333-8333-333333333333', url: 'https://old.example.com/in', disabled_at: '2026-11-27T03:00:00.000Z' });
    const { view } = await renderScreen('webhooks', { signedIn: MANAGER, routes: { [ENDPOINTS]: () => listOf(wireEndpoint(), off) } });
    const [sending, disabled] = rowsOf(await view.findByRole('table', { name: 'Endpoints' }));
    within(sending!).getByText('https://hr.example.com/hooks');
    within(sending!).getByText('corporate_subscription.created');
    within(sending!).getByText('learners.updated');
    within(sending!).getByText('Sending');
    within(sending!).getByRole('button', { name: 'Turn off https://hr.example.com/hooks' });
    within(sending!).getByRole('button', { name: 'Send a test event to https://hr.example.com/hooks' });
    within(disabled!).getByText(/^Turned off since /);
    within(disabled!).getByRole('button', { name: 'Turn on https://old.example.com/in' });
  });

  it('Add an endpoint: the events offered are the API\'s list; Add posts them, and the secret is shown once with Copy until Done', async () => {
    let loads = 0;
    const { view, calls } = await renderScreen('webhooks', {
      signedIn: MANAGER,
      routes: {
        [ENDPOINTS]: () => ((loads += 1) === 1 ? listOf() : listOf(wireEndpoint())),
        'POST /api/v2/organizations/1/webhook_endpoints': () => jsonResponse(201, { webhook_endpoint: wireEndpoint(), secret: SECRET }),
      },
    });
    await view.findByText('No endpoints yet.');
    fireEvent.click(view.getByRole('button', { name: 'Add an endpoint' }));
    const dialog = await view.findByRole('dialog', { name: 'Add an endpoint' });
    fireEvent.change(await within(dialog).findByLabelText(/^Endpoint URL/), { target: { value: 'https://hr.example.com/hooks' } });
    await settle();
    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes).to.have.length(WEBHOOK_EVENT_TYPES.length);
    within(dialog).getByText('An application was made');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /corporate_subscription\.created/ }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /learners\.updated/ }));
    await settle();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/webhook_endpoints')[0]!.args[1])).to.deep.equal({
      url: 'https://hr.example.com/hooks',
      events: ['corporate_subscription.created', 'learners.updated'],
    });
    await view.findByText(SECRET);
    view.getByText(/^The signing secret of https:\/\/hr\.example\.com\/hooks\. Copy it now/);
    view.getByRole('button', { name: 'Copy' });
    fireEvent.click(view.getByRole('button', { name: 'Done: I have kept it' }));
    await waitFor(() => expect(view.queryByText(SECRET)).to.equal(null));
  });

  it("an endpoint's deliveries (query endpoint): event, status, the answer and attempts; Resend posts the delivery's resend", async () => {
    const delivery = {
      id: DELIVERY_ID,
      event_id: 'msg_abc',
      event_type: 'corporate_subscription.created',
      status: 'failed',
      attempts: 8,
      response_status: 500,
      response_ms: 12,
      last_error: 'answered 500',
      last_attempt_at: '2026-11-28T01:00:00.000Z',
      created_at: '2026-11-27T00:00:00.000Z',
    };
    const { view, calls } = await renderScreen('webhooks', {
      signedIn: MANAGER,
      url: `/webhooks?endpoint=${ENDPOINT_ID}`,
      routes: {
        [ENDPOINTS]: () => listOf(wireEndpoint()),
        [`GET /api/v2/organizations/1/webhook_endpoints/${ENDPOINT_ID}/deliveries`]: () => jsonResponse(200, { deliveries: [delivery], next_cursor: null }),
        [`POST /api/v2/organizations/1/webhook_endpoints/${ENDPOINT_ID}/deliveries/${DELIVERY_ID}/resend`]: () => jsonResponse(202, null),
      },
    });
    const [row] = rowsOf(await view.findByRole('table', { name: 'Deliveries' }));
    within(row!).getByText('corporate_subscription.created');
    within(row!).getByText('msg_abc');
    within(row!).getByText('Failed');
    within(row!).getByText('Answered 500 in 12 ms');
    within(row!).getByText('8');
    fireEvent.click(within(row!).getByRole('button', { name: 'Resend event msg_abc' }));
    await waitFor(() => expect(calls('POST', `/api/v2/organizations/1/webhook_endpoints/${ENDPOINT_ID}/deliveries/${DELIVERY_ID}/resend`)).to.have.length(1));
  });
});
