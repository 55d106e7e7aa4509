/**
 * Application Details (SPEC 2.10, screens/subscription-details.json) through the engine: the header, the buttons
 * disabled past the change deadline and 'Cancel order' hidden for gls, the cancel flow (confirm, DELETE, flash, the
 * Service Details of the last service's group), 404s going to top, and the order summary of 2.11 in detail mode
 * (screens/fragments/subscription-summary.json) with the contact preview in Japanese and English order.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import sinon from 'sinon';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { jsonResponse } from '../../api/harness.js';
import { wireBillingContact, wireContact } from './fixtures.js';
import { MANAGER, renderScreen } from './support.js';

const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never).map((message) => message.messageKey);

const group = (id: number, name: string) => ({ id, name, urls: [] });
const BILLING = wireBillingContact({ kana_last_name: 'スズキ', kana_first_name: 'イチロウ', cc_email: 'cc@example.com', addressee: '経理課' });
const CONTACT = wireContact({ kana_last_name: 'サトウ', kana_first_name: 'ハナコ' });

function subscription(overrides: Record<string, unknown> = {}) {
  return {
    corporate_subscription: {
      id: 101,
      request_code: 'A000000101',
      is_updatable: true,
      applied_at: '2026-11-02T01:00:00Z',
      starts_on: ['2026-12-01', '2027-01-01'],
      user_count: 2,
      services: [
        { id: 13, name: 'Marketing', subtitle: 'Marketing', service_group: group(2, 'Online MBA 2.0') },
        { id: 14, name: 'Accounting', subtitle: 'Accounting', service_group: group(2, 'Online MBA 2.0') },
      ],
      project: null,
      project_class: null,
      type: 'standard',
      term: null,
      admins: [
        { id: 1, first_name: '太郎', last_name: '山田', email: 'manager@example.com' },
        { id: 5, first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' },
      ],
      users: [
        { id: 1, first_name: 'Ken', last_name: 'Sato', kana_first_name: 'ケン', kana_last_name: 'サトウ', email: 'ken@example.com' },
        { id: 2, first_name: 'Yui', last_name: 'Mori', kana_first_name: 'ユイ', kana_last_name: 'モリ', email: 'yui@example.com' },
      ],
      billing_contact: BILLING,
      billing_contact_id: 3,
      contact: CONTACT,
      contact_id: 7,
      billing_note: 'PO 123',
      ...overrides,
    },
  };
}

const ONE = 'GET /api/v2/organizations/1/corporate_subscriptions/A000000101';
const DELETE = 'DELETE /api/v2/organizations/1/corporate_subscriptions/A000000101';
const open = (body: unknown, options: { status?: number; language?: 'en' | 'ja'; routes?: Record<string, () => Response> } = {}) =>
  renderScreen('subscription-details', {
    url: '/subscription/A000000101',
    signedIn: MANAGER,
    language: options.language,
    routes: { [ONE]: () => jsonResponse(options.status ?? 200, body), ...options.routes },
  });

/** The texts of the blocks in document order, for the order of the preview's lines. */
const lines = (element: HTMLElement) => [...element.querySelectorAll('p')].map((paragraph) => paragraph.textContent);

describe('Application Details (SPEC 2.10)', () => {
  afterEach(cleanup);

  it('shows the group name and the request code, both buttons enabled while the application is updatable', async () => {
    const { view, calls } = await open(subscription());
    await view.findByRole('heading', { name: 'Online MBA 2.0' });
    view.getByText('Request code: A000000101');
    expect(view.getByRole('button', { name: 'Cancel order' }).hasAttribute('disabled')).to.equal(false);
    expect(view.getByRole('link', { name: 'Change order' }).getAttribute('href')).to.equal('/subscription/A000000101/edit');
    expect(calls('GET', '/api/v2/organizations/1/corporate_subscriptions/A000000101')[0]!.args[0]).to.match(/\?lang=en$/);
  });

  it('past the change deadline (isUpdatable false) both buttons are disabled', async () => {
    const { view } = await open(subscription({ is_updatable: false }));
    expect((await view.findByRole('button', { name: 'Cancel order' })).hasAttribute('disabled')).to.equal(true);
    expect(view.getByRole('button', { name: 'Change order' }).hasAttribute('disabled')).to.equal(true);
    expect(view.queryByRole('link', { name: 'Change order' })).to.equal(null);
  });

  it("gls applications have no 'Cancel order' button (class enrolments are managed by the provider)", async () => {
    const gls = subscription({ services: [{ id: 4, name: 'Class-based Training', subtitle: '', service_group: group(4, 'Class-based Training') }], project_class: { id: 1, name: 'GLS-A' } });
    const { view } = await open(gls);
    await view.findByRole('heading', { name: 'Class-based Training' });
    expect(view.queryByRole('button', { name: 'Cancel order' })).to.equal(null);
    // a service without a subtitle: the term is its name
    expect(view.getByText('Term').nextElementSibling!.textContent).to.equal('Class-based Training');
    view.getByRole('link', { name: 'Change order' });
  });

  it("'Cancel order' asks with the group name and request code; Cancel sends nothing; 'Execute cancel order' deletes, flashes and opens the Service Details of the last service's group", async () => {
    const lastGroup = subscription({
      services: [
        { id: 11, name: 'Unlimited Library 3 months', subtitle: '3 months', service_group: group(1, 'Unlimited Library') },
        { id: 23, name: 'Library Plus 6 months', subtitle: '6 months', service_group: group(3, 'Library Plus (legacy)') },
      ],
    });
    const { view, calls, navigate, store } = await open(lastGroup, { routes: { [DELETE]: () => new Response(null, { status: 204 }) } });
    fireEvent.click(await view.findByRole('button', { name: 'Cancel order' }));
    let dialog = await view.findByRole('dialog', { name: 'Cancel order' });
    within(dialog).getByText('Cancel the order of Unlimited Library with the request code A000000101?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(calls('DELETE', '/api/v2/organizations/1/corporate_subscriptions/A000000101')).to.have.length(0);

    fireEvent.click(view.getByRole('button', { name: 'Cancel order' }));
    dialog = await view.findByRole('dialog', { name: 'Cancel order' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Execute cancel order' }));
    await waitFor(() => expect(navigate.calledWith('/services/3', sinon.match({ replace: true }))).to.equal(true));
    expect(calls('DELETE', '/api/v2/organizations/1/corporate_subscriptions/A000000101')).to.have.length(1);
    expect(flashes(store)).to.deep.equal(['subscriptionDetails.cancel.done']);
  });

  it('a cancellation answered 404 (gone meanwhile) goes to top', async () => {
    const { view, navigate } = await open(subscription(), { routes: { [DELETE]: () => jsonResponse(404, { error: 'not_found' }) } });
    fireEvent.click(await view.findByRole('button', { name: 'Cancel order' }));
    fireEvent.click(within(await view.findByRole('dialog')).getByRole('button', { name: 'Execute cancel order' }));
    await waitFor(() => expect(navigate.calledWith('/', sinon.match({ replace: true }))).to.equal(true));
  });

  it('a cancellation of a version changed meanwhile (412): made on the version shown (If-Match), nothing cancelled, the flash says who and when, the application read again', async () => {
    let reads = 0;
    const { view, calls, navigate, store } = await open(subscription({ etag: '"301"' }), {
      routes: {
        [ONE]: () => jsonResponse(200, { ...subscription({ etag: '"301"' }), reads: (reads += 1) }),
        [DELETE]: () => jsonResponse(412, { error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Cancel order' }));
    fireEvent.click(within(await view.findByRole('dialog')).getByRole('button', { name: 'Execute cancel order' }));
    await waitFor(() => expect(flashes(store)).to.deep.equal(['errors.changedMeanwhile']));
    await waitFor(() => expect(reads).to.equal(2));
    expect((calls('DELETE', '/api/v2/organizations/1/corporate_subscriptions/A000000101')[0]!.args[1]!.headers as Record<string, string>)['if-match']).to.equal('"301"');
    expect(navigate.called, 'stays on the application').to.equal(false);
  });

  it('an unknown request code (404 on load) goes to top', async () => {
    const { navigate } = await open({ error: 'not_found' }, { status: 404 });
    await waitFor(() => expect(navigate.calledWith('/', sinon.match({ replace: true }))).to.equal(true));
  });

  describe('the order summary in detail mode (SPEC 2.11 confirm view)', () => {
    it("English: subjects, the start date with weekday, admins, 'not applicable', the users with their count, billing contact (name, department, corporation), note and contact; no edit links or warnings", async () => {
      const { view } = await open(subscription());
      await view.findByText('Subject');
      view.getByText('Marketing, Accounting');
      view.getByText('Tue, 2026-12-01');
      view.getByText('太郎 山田');
      view.getByText('Jane Doe');
      view.getByText('Not applicable');
      view.getByText('2 students');
      const table = view.getByRole('table', { name: 'Users of the application' });
      const row = within(table).getAllByRole('row')[1]!;
      within(row).getByText('Ken Sato');
      within(row).getByText('ケン サトウ');
      within(row).getByText('ken@example.com');
      expect(within(table).queryByText('Warnings')).to.equal(null);
      const billing = view.getByRole('region', { name: 'Billing contact' });
      expect(lines(billing)).to.deep.equal(['一郎 鈴木 (イチロウ スズキ)', '経理部', '株式会社デモ', 'c/o 経理課', '03-1111-2222', 'To: billing@example.com', 'Cc: cc@example.com']);
      view.getByText('PO 123');
      const contact = view.getByRole('region', { name: 'Contact' });
      expect(lines(contact)).to.deep.equal(['花子 佐藤 (ハナコ サトウ)', '人事部', '株式会社デモ', '〒100-0005 東京都千代田区丸の内1-1-1', '03-1234-5678', 'hr@example.com']);
      expect(view.queryByRole('link', { name: /^Edit/ })).to.equal(null);
      view.getByText(/Orders can be changed or cancelled until 2 business days before the start date/);
    });

    it('Japanese: corporation, department, name and addressee in that order; the date as yyyy年M月d日(曜)', async () => {
      const { view } = await open(subscription(), { language: 'ja' });
      await view.findByText('2026年12月1日(火)');
      const billing = view.getByRole('region', { name: '請求先' });
      expect(lines(billing)).to.deep.equal(['株式会社デモ', '経理部', '鈴木 一郎（スズキ イチロウ）', '経理課 様方', '03-1111-2222', 'To: billing@example.com', 'Cc: cc@example.com']);
      const contact = view.getByRole('region', { name: '送付先' });
      expect(lines(contact)).to.deep.equal(['株式会社デモ', '人事部', '〒100-0005 東京都千代田区丸の内1-1-1', '佐藤 花子（サトウ ハナコ）', '03-1234-5678', 'hr@example.com']);
    });

    it('with a project class: its name, a single-choice group labelled term (its subtitle), and no billing contact, note or contact', async () => {
      const { view } = await open(
        subscription({
          services: [{ id: 12, name: 'Unlimited Library 6 months', subtitle: '6 months', service_group: group(1, 'Unlimited Library') }],
          project_class: { id: 2, name: 'GLS-A' },
          billing_contact: null,
          contact: null,
        }),
      );
      await view.findByText('Term');
      view.getByText('6 months');
      view.getByText('GLS-A');
      expect(view.queryByText('Not applicable')).to.equal(null);
      expect(view.queryByRole('region', { name: 'Billing contact' })).to.equal(null);
      expect(view.queryByText('Billing note')).to.equal(null);
      expect(view.queryByRole('region', { name: 'Contact' })).to.equal(null);
    });
  });
});
