/**
 * The subscriptions section of Service Details (SPEC 2.9, screens/service-details.json): for managers, except for the
 * hodai and gu groups, the applications of the service's group in the order of `order_by` (default -starts_on; the
 * dropdown changes the URL's parameter and the list is loaded again), each linking to its Application Details, or
 * the empty text; members never load it.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../api/harness.js';
import { wireService } from './fixtures.js';
import { MANAGER, MEMBER, renderScreen } from './support.js';

const group = (id: number, name: string) => ({ id, name });

const detail = (id: number, groupId: number, name: string) => ({ service: wireService(id, name, { service_group: { id: groupId, name, urls: [] } }) });

const EMBA_LATE = {
  id: 101,
  request_code: 'A000000101',
  is_updatable: true,
  applied_at: '2026-11-24T01:00:00Z',
  starts_on: ['2027-01-01', '2027-02-01'],
  user_count: 3,
  services: [
    { id: 13, name: 'Marketing', subtitle: 'Marketing', service_group: group(2, 'Online MBA 2.0') },
    { id: 14, name: 'Accounting', subtitle: 'Accounting', service_group: group(2, 'Online MBA 2.0') },
  ],
  project: null,
  project_class: null,
};
const EMBA_EARLY = {
  ...EMBA_LATE,
  id: 102,
  request_code: 'A000000102',
  is_updatable: false,
  starts_on: ['2026-10-01'],
  user_count: 1,
  services: [{ id: 15, name: 'Leadership', subtitle: 'Leadership', service_group: group(2, 'Online MBA 2.0') }],
};
const GLS = {
  ...EMBA_LATE,
  id: 103,
  request_code: 'A000000103',
  starts_on: ['2026-12-07'],
  user_count: 12,
  services: [{ id: 4, name: 'Class-based Training', subtitle: '', service_group: group(4, 'Class-based Training') }],
  project: { project_code: 'P001', name: 'New hires 2027' },
  project_class: { id: 1, name: 'GLS-A' },
};

const LIST = 'GET /api/v2/organizations/1/corporate_subscriptions';

function open(id: number, groupId: number, name: string, list: (url: string) => unknown[], signedIn = MANAGER, url = `/services/${id}`) {
  return renderScreen('serviceDetails', {
    url,
    signedIn,
    routes: {
      [`GET /api/v2/services/${id}`]: () => jsonResponse(200, detail(id, groupId, name)),
      [LIST]: (requested) => jsonResponse(200, { corporate_subscriptions: list(requested) }),
    },
  });
}

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://localhost').searchParams);

describe('Service Details: the subscriptions section (SPEC 2.9)', () => {
  afterEach(cleanup);

  it("a manager sees the notes, the sort dropdown and the group's applications, each linking to its details", async () => {
    const { view, calls } = await open(2, 2, 'Online MBA 2.0', () => [EMBA_LATE, EMBA_EARLY]);
    const section = await view.findByRole('region', { name: 'Subscriptions' });
    within(section).getByText('Orders can be changed or cancelled until 2 business days before the start date.');
    within(section).getByText('Loading of the data may be delayed.');
    const sort = within(section).getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement;
    expect(sort.value).to.equal('-starts_on');
    expect([...sort.options].map((option) => option.text)).to.deep.equal(['starts on descending', 'starts on ascending']);
    expect(queryOf(calls('GET', '/api/v2/organizations/1/corporate_subscriptions')[0]!.args[0] as string)).to.deep.equal({ service_group_id: '2', order_by: '-starts_on', per_page: '999', lang: 'en' });

    const items = within(within(section).getByRole('list', { name: 'Subscriptions of this service' })).getAllByRole('listitem');
    expect(items).to.have.length(2);
    const first = within(items[0]!).getByRole('link');
    expect(first.getAttribute('href')).to.equal('/subscription/A000000101');
    within(first).getByText('Online MBA 2.0');
    within(first).getByText('changeable');
    within(first).getByText('Marketing, Accounting');
    within(first).getByText('Request code: A000000101');
    within(first).getByText('Applied on: Tue, 2026-11-24');
    within(first).getByText('Starts on: 2027-01-01 onwards');
    within(first).getByText('3 people');
    const second = within(items[1]!).getByRole('link');
    expect(within(second).queryByText('changeable')).to.equal(null);
    within(second).getByText('Starts on: 2026-10-01');
    within(second).getByText('1 people');
  });

  it('gls applications show the project name instead of the services, and the project class', async () => {
    const { view } = await open(4, 4, 'Class-based Training', () => [GLS]);
    const item = await view.findByRole('link', { name: /A000000103/ });
    within(item).getByText('New hires 2027');
    within(item).getByText('Project class: GLS-A');
    expect(within(item).queryByText('Class-based Training', { selector: '.item-list__line span' })).to.equal(null);
  });

  it('choosing ascending puts order_by=starts_on in the URL and loads the list again in that order', async () => {
    const { view, calls } = await open(2, 2, 'Online MBA 2.0', (url) => (queryOf(url).order_by === 'starts_on' ? [EMBA_EARLY, EMBA_LATE] : [EMBA_LATE, EMBA_EARLY]));
    const section = await view.findByRole('region', { name: 'Subscriptions' });
    await within(section).findByRole('link', { name: /A000000101/ });
    fireEvent.change(within(section).getByRole('combobox', { name: 'Sort' }), { target: { value: 'starts_on' } });
    await waitFor(() => expect(calls('GET', '/api/v2/organizations/1/corporate_subscriptions')).to.have.length(2));
    expect(queryOf(calls('GET', '/api/v2/organizations/1/corporate_subscriptions')[1]!.args[0] as string).order_by).to.equal('starts_on');
    await waitFor(() => {
      const links = within(view.getByRole('region', { name: 'Subscriptions' })).getAllByRole('link');
      expect(links.map((link) => link.getAttribute('href'))).to.deep.equal(['/subscription/A000000102', '/subscription/A000000101']);
    });
    expect((view.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement).value).to.equal('starts_on');
  });

  it('the order in the URL is kept: ?order_by=starts_on loads in that order and selects it', async () => {
    const { view, calls } = await open(2, 2, 'Online MBA 2.0', () => [EMBA_EARLY], MANAGER, '/services/2?order_by=starts_on');
    expect(((await view.findByRole('combobox', { name: 'Sort' })) as HTMLSelectElement).value).to.equal('starts_on');
    expect(queryOf(calls('GET', '/api/v2/organizations/1/corporate_subscriptions')[0]!.args[0] as string).order_by).to.equal('starts_on');
  });

  it('no applications: the empty text', async () => {
    const { view } = await open(3, 3, 'Library Plus (legacy)', () => []);
    const section = await view.findByRole('region', { name: 'Subscriptions' });
    within(section).getByText('There are no subscriptions yet.');
  });

  it('a member sees no section and the list is never asked for', async () => {
    const { view, calls } = await open(2, 2, 'Online MBA 2.0', () => [EMBA_LATE], MEMBER);
    await view.findByRole('heading', { name: 'Online MBA 2.0' });
    expect(view.queryByRole('region', { name: 'Subscriptions' })).to.equal(null);
    expect(calls('GET', '/api/v2/organizations/1/corporate_subscriptions')).to.have.length(0);
  });

  for (const [groupId, name] of [
    [1, 'Unlimited Library'],
    [7, 'Global Unlimited'],
  ] as const) {
    it(`group ${groupId} (${groupId === 1 ? 'hodai' : 'gu'}): no section for a manager either, and no list call`, async () => {
      const { view, calls } = await open(groupId, groupId, name, () => [EMBA_LATE]);
      await view.findByRole('heading', { name });
      expect(view.queryByRole('region', { name: 'Subscriptions' })).to.equal(null);
      expect(calls('GET', '/api/v2/organizations/1/corporate_subscriptions')).to.have.length(0);
    });
  }
});
