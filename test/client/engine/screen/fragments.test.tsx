/**
 * Engine mechanisms tried on definitions registered by the test: fragments (shared blocks with their inputs as
 * `$values`, nested), data entries that wait for others (`after`), and the order summary fragment outside detail mode
 * (the wizard's confirm view: edit links to the form anchors, per-learner warnings from a parallel array).
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../../../../src/common/screens.js';
import { registerFragment } from '../../../../src/client/engine/screen/fragments.js';
import { registerScreen } from '../../../../src/client/engine/screen/navigation.js';
import { loadScreen } from '../../../../src/client/engine/screen/screenModule.js';
import { jsonResponse } from '../../api/harness.js';
import { MANAGER, renderScreen } from './support.js';

const FRAGMENT_SCREEN: ScreenDefinition = {
  id: 'test-fragments',
  path: '/test/fragments',
  access: 'admin',
  width: 'normal',
  title: 'subscriptionDetails.title',
  breadcrumb: [],
  data: {
    first: { path: 'services/1' },
    second: { path: 'organizations/:orgId/contacts', after: ['first'], query: { group: '$data.first.service.serviceGroup.id' } },
  },
  blocks: [
    { type: 'fragment', name: 'test-outer', values: { title: '$data.first.service.name', inner: '$data.second.contacts.0.email', fixed: 7 } },
    { type: 'text', text: 'serviceDetails.name', values: { name: '$values.title' } },
  ],
};

const SUMMARY_SCREEN: ScreenDefinition = {
  id: 'test-summary',
  path: '/test/summary',
  access: 'admin',
  width: 'wide',
  title: 'subscriptionDetails.title',
  breadcrumb: [],
  data: { dryRun: { path: 'services/2' } },
  blocks: [{ type: 'fragment', name: 'subscription-summary', values: { subscription: '$data.dryRun.corporateSubscription', warnings: '$data.dryRun.warnings' } }],
};

const DRY_RUN = {
  corporate_subscription: {
    id: 0,
    request_code: '',
    is_updatable: true,
    applied_at: '2026-11-23T00:00:00Z',
    starts_on: ['2026-12-01'],
    user_count: 3,
    services: [{ id: 12, name: 'Unlimited Library 6 months', subtitle: '6 months', service_group: { id: 1, name: 'Unlimited Library', urls: [] } }],
    project: null,
    project_class: null,
    type: 'standard',
    term: '6 months',
    admins: [{ id: 1, first_name: '太郎', last_name: '山田', email: 'manager@example.com' }],
    users: [
      { id: 0, first_name: 'Ken', last_name: 'Sato', kana_first_name: 'ケン', kana_last_name: 'サトウ', email: 'ken@example.com' },
      { id: 0, first_name: 'Ken', last_name: 'Sato', kana_first_name: 'ケン', kana_last_name: 'サトウ', email: 'ken2@example.com' },
      { id: 0, first_name: 'Yui', last_name: 'Mori', kana_first_name: 'ユイ', kana_last_name: 'モリ', email: 'yui@example.com' },
    ],
    billing_contact: null,
    billing_contact_id: null,
    contact: null,
    contact_id: null,
    billing_note: null,
  },
  warnings: { users: [['duplicatedName'], ['duplicatedName', { engaged_request_code: 'A000000202' }], []], codes: [] },
};

describe('engine: fragments, dependent data and the order summary outside detail mode', () => {
  before(async () => {
    // the order summary's fragment comes with the chunk of a screen that shows it
    await loadScreen('subscription-details');
    registerScreen(FRAGMENT_SCREEN);
    registerScreen(SUMMARY_SCREEN);
    registerFragment('test-outer', {
      blocks: [
        { type: 'text', text: 'serviceDetails.name', values: { name: '$values.title' } },
        { type: 'text', text: 'serviceDetails.name', values: { name: '$values.fixed' } },
        { type: 'fragment', name: 'test-inner', values: { title: '$values.inner' } },
      ],
    });
    registerFragment('test-inner', { blocks: [{ type: 'text', text: 'serviceDetails.description', values: { description: '$values.title' } }] });
  });
  afterEach(cleanup);

  it("a fragment's blocks read its inputs as $values, a nested fragment its own; the entry that waits loads with the first answer in $data", async () => {
    const { view, calls } = await renderScreen('test-fragments', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/services/1': () => jsonResponse(200, { service: { name: 'Outer title', service_group: { id: 9 } } }),
        'GET /api/v2/organizations/1/contacts': () => jsonResponse(200, { contacts: [{ email: 'inner@example.com' }] }),
      },
    });
    await view.findByText('Outer title');
    view.getByText('7');
    view.getByText('inner@example.com');
    expect(calls('GET', '/api/v2/organizations/1/contacts')[0]!.args[0]).to.match(/\?group=9$/);
    // outside the fragment, $values is not there
    expect(view.container.querySelectorAll('p')).to.have.length(4);
    expect(view.container.querySelectorAll('p')[3]!.textContent).to.equal('');
  });

  it('an entry waiting for one that failed is not loaded', async () => {
    const { calls } = await renderScreen('test-fragments', { signedIn: MANAGER, routes: { 'GET /api/v2/services/1': () => jsonResponse(500, { error: 'internal' }) } });
    await waitFor(() => expect(calls('GET', '/api/v2/services/1')).to.have.length(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls('GET', '/api/v2/organizations/1/contacts')).to.have.length(0);
  });

  it("outside detail mode the summary has an 'edit' link per section to its form anchor and each learner's warnings: duplicated name, and the other application in a new tab", async () => {
    const { view } = await renderScreen('test-summary', { signedIn: MANAGER, routes: { 'GET /api/v2/services/2': () => jsonResponse(200, DRY_RUN) } });
    await view.findByText('Term');
    const anchors = Object.fromEntries(
      ['services', 'start date', 'admins', 'project class', 'users', 'billing contact', 'billing note', 'contact'].map((name) => [name, view.getByRole('link', { name: `Edit the ${name}` }).getAttribute('href')]),
    );
    expect(anchors).to.deep.equal({
      services: '#services',
      'start date': '#startsOn',
      admins: '#adminIds',
      'project class': '#projectClass',
      users: '#users',
      'billing contact': '#billingContact',
      'billing note': '#billingNote',
      contact: '#contact',
    });
    view.getByText('Tue, 2026-12-01');
    view.getByText('3 students');
    view.getByText('None');
    const rows = within(view.getByRole('table', { name: 'Users of the application' })).getAllByRole('row');
    within(rows[0]!).getByText('Warnings');
    within(rows[1]!).getByText('duplicated name');
    within(rows[2]!).getByText('duplicated name');
    const engaged = within(rows[2]!).getByRole('link', { name: 'This learner is already in application A000000202.' });
    expect(engaged.getAttribute('href')).to.equal('/subscription/A000000202');
    expect(engaged.getAttribute('target')).to.equal('_blank');
    expect(within(rows[3]!).queryByText('duplicated name')).to.equal(null);
    expect(within(rows[3]!).queryByRole('link')).to.equal(null);
  });
});
