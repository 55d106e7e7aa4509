/**
 * The Activity log (screens/audit.json, issue 21) through the engine: the admin filter's options come from the
 * organisation's admins (a select's `optionsFrom`), and choosing one puts its id in the query the list is loaded with;
 * the period's first and last days are date fields bound to the query (a `date` block).
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../api/harness.js';
import { MANAGER, renderScreen } from './support.js';

const ADMINS = [
  { role: 'manager', admin: { id: 1, email: 'manager@example.com', first_name: '太郎', last_name: '山田', kana_first_name: 'たろう', kana_last_name: 'やまだ', activated: true } },
  { role: 'member', admin: { id: 2, email: 'member@example.com', first_name: '花子', last_name: '佐藤', kana_first_name: 'はなこ', kana_last_name: 'さとう', activated: true } },
];

/** A sign-in lock (no actor: an unauthenticated client) and a contact change of a personal field (its values not kept). */
const ENTRIES = [
  {
    id: '2', occurred_at: '2026-11-24T09:00:00.000Z', actor: { admin_id: null, email: '' }, action: 'signIn.locked',
    target: { type: 'admin', id: '2', label: 'member@example.com' }, changes: [{ field: 'lockedUntil', before: null, after: '2026-11-24T09:15:00.000Z' }],
  },
  {
    id: '1', occurred_at: '2026-11-24T08:00:00.000Z', actor: { admin_id: 1, email: 'manager@example.com' }, action: 'contact.updated',
    target: { type: 'contact', id: '5', label: '株式会社デモ 総務部' }, changes: [{ field: 'email', before: null, after: null }, { field: 'departmentName', before: '経理部', after: '総務部' }],
  },
];

/** The Activity log of a manager whose organisation has ADMINS and these entries (default none). */
const renderAudit = (entries: unknown[] = [], language: 'en' | 'ja' = 'en') =>
  renderScreen('audit', {
    signedIn: MANAGER,
    language,
    routes: {
      'GET /api/v2/organizations/1/affiliations': () => jsonResponse(200, { affiliations: ADMINS }),
      'GET /api/v2/organizations/1/audit_events': () => jsonResponse(200, { audit_events: entries, next_cursor: null }),
    },
  });

describe('screens/audit.json (issue 21 Activity log)', () => {
  afterEach(cleanup);

  it("offers the organisation's admins in the Admin filter, after 'All'; choosing one loads the list with its admin_id", async () => {
    const { view, calls } = await renderAudit();
    const select = (await view.findByRole('combobox', { name: 'Admin' })) as HTMLSelectElement;
    await waitFor(() => expect(within(select).getAllByRole('option').map((option) => option.textContent)).to.deep.equal(['All', 'manager@example.com', 'member@example.com']));
    expect([...select.options].map((option) => option.value)).to.deep.equal(['', '1', '2']);
    fireEvent.change(select, { target: { value: '2' } });
    await waitFor(() => expect(calls('GET', '/api/v2/organizations/1/audit_events').at(-1)!.args[0]).to.contain('admin_id=2'));
  });

  for (const [language, words] of [
    ['en', { noActor: 'An unauthenticated client', showChanges: 'Show changes', notKept: 'Not recorded (personal data)' }],
    ['ja', { noActor: '未認証のクライアント', showChanges: '変更を表示', notKept: '記録しません（個人情報）' }],
  ] as const) {
    it(`names an entry without an actor as an unauthenticated client, and a personal field's change as not recorded (${language})`, async () => {
      const { view } = await renderAudit(ENTRIES, language);
      const [, lock, contact] = await view.findAllByRole('row');
      expect(within(lock!).getByText(words.noActor).tagName).to.not.equal('A');
      expect(within(lock!).queryAllByRole('link').map((link) => link.textContent)).to.not.include('');
      expect(within(contact!).getByRole('link', { name: 'manager@example.com' })).to.not.equal(null);
      fireEvent.click(within(contact!).getByRole('button', { name: new RegExp(words.showChanges) }));
      const changes = await view.findByRole('table', { name: language === 'en' ? 'Changes' : '変更内容' });
      const [, email, department] = within(changes).getAllByRole('row');
      expect(within(email!).getAllByText(words.notKept)).to.have.length(2);
      expect(within(department!).getAllByRole('cell').map((cell) => cell.textContent)).to.deep.equal(['departmentName', '経理部', '総務部']);
    });
  }

  // issue 46: an API client's write names the client, never 'an unauthenticated client'
  for (const [language, shown, noActor] of [
    ['en', 'API client "HR sync"', 'An unauthenticated client'],
    ['ja', 'APIクライアント「HR sync」', '未認証のクライアント'],
  ] as const) {
    it(`names an API client's entry by the client (${language})`, async () => {
      const entry = {
        id: '3', occurred_at: '2026-11-24T10:00:00.000Z', actor: { admin_id: null, email: '', api_client_name: 'HR sync' }, action: 'user.nameIdChanged',
        target: { type: 'user', id: '1', label: 'learner@example.com' }, changes: [{ field: 'nameId', before: null, after: null }],
      };
      const { view } = await renderAudit([entry], language);
      const [, row] = await view.findAllByRole('row');
      within(row!).getByText(shown);
      expect(within(row!).queryByText(noActor)).to.equal(null);
    });
  }

  it('loads the list from and to the days in the date fields, and not while a year is half typed', async () => {
    const { view, calls } = await renderAudit();
    const lastCall = () => calls('GET', '/api/v2/organizations/1/audit_events').at(-1)!.args[0] as string;
    await view.findByText('There are no entries.');
    const from = view.getByLabelText('From') as HTMLInputElement;
    expect(from.type).to.equal('date');
    fireEvent.change(from, { target: { value: '2026-04-01' } });
    await waitFor(() => expect(lastCall()).to.contain('from=2026-04-01'));
    fireEvent.change(view.getByLabelText('To'), { target: { value: '2026-06-30' } });
    await waitFor(() => expect(lastCall()).to.match(/from=2026-04-01.*to=2026-06-30|to=2026-06-30.*from=2026-04-01/));
    const loads = calls('GET', '/api/v2/organizations/1/audit_events').length;
    fireEvent.change(from, { target: { value: '0002-04-01' } });
    expect(from.value).to.equal('0002-04-01');
    fireEvent.change(from, { target: { value: '' } });
    await waitFor(() => expect(lastCall()).to.not.contain('from=2026'));
    expect(calls('GET', '/api/v2/organizations/1/audit_events').length).to.equal(loads + 1);
  });
});
