/**
 * A form presented as a modal (ActionDefinition.form; SPEC 2.12's contact modals will use it): no screen of screens/
 * uses it yet, so the test registers one: a list of contacts and an action that adds one through a form in a dialog.
 */
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import type { ScreenDefinition } from '../../../../src/common/screens.js';
// loaded here first: the dialog's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/screen/ModalForm.js';
import { registerScreen } from '../../../../src/client/engine/screen/navigation.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse } from '../../api/harness.js';
import { renderScreen } from './support.js';

const SCREEN: ScreenDefinition = {
  id: 'modalFormExample',
  path: '/example/contacts',
  access: 'member',
  width: 'wide',
  title: 'account.title',
  breadcrumb: [],
  data: { contacts: { path: 'organizations/:orgId/contacts' } },
  blocks: [
    { type: 'links', items: [{ label: 'account.change', action: 'addContact' }] },
    { type: 'table', rows: '$data.contacts.contacts', caption: 'account.title', columns: [{ title: 'account.fields.name', cells: [{ type: 'text', value: '$item.lastName' }] }] },
  ],
  actions: {
    addContact: {
      form: { schema: 'admin-name', title: 'account.name.title', warning: 'common.leaveWarning', submitLabel: 'account.name.submit', initialData: '$me' },
      call: { method: 'POST', path: 'organizations/:orgId/contacts' },
      outcomes: [{ on: 'success', flash: 'account.name.updated', reload: true }],
    },
  },
};

const NAME = { lastName: '鈴木', firstName: '一郎', kanaLastName: 'すずき', kanaFirstName: 'いちろう' };
/** The form starts from the signed-in admin's names ('$me'): typing into RJSF's fields is not what is under test. */
const SIGNED_IN = { role: 'manager' as const, me: { id: 1, email: 'manager@example.com', ...NAME } };

describe('engine/screen: a form presented as a modal', () => {
  before(() => registerScreen(SCREEN));
  afterEach(cleanup);

  it('opens with its initial data ($me); a backdrop click does not close it; success posts the data, closes it, flashes and reloads', async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('modalFormExample', {
      signedIn: SIGNED_IN,
      routes: {
        'GET /api/v2/organizations/1/contacts': () => jsonResponse(200, { contacts: (loads += 1) === 1 ? [] : [{ lastName: '鈴木' }] }),
        'POST /api/v2/organizations/1/contacts': () => jsonResponse(201, { contact: { id: 9 } }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Change' }));
    const dialog = await view.findByRole('dialog', { name: 'Change name' });
    const last = (await within(dialog).findByLabelText(/^Last name(?! \()/)) as HTMLInputElement;
    expect(last.value).to.equal('鈴木');
    fireEvent.mouseDown(view.getByTestId('dialog-backdrop'));
    expect(view.queryByRole('dialog')).to.not.equal(null);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/contacts')[0]!.args[1])).to.deep.equal({ last_name: '鈴木', first_name: '一郎', kana_last_name: 'すずき', kana_first_name: 'いちろう' });
    expect(selectFlashMessages(store.getState() as never).map((message) => message.messageKey)).to.deep.equal(['account.name.updated']);
    await view.findByText('鈴木');
    expect(loads).to.equal(2);
  });

  it("keeps the server's field errors in the dialog, which Cancel closes without a call", async () => {
    const { view, calls } = await renderScreen('modalFormExample', {
      signedIn: SIGNED_IN,
      routes: {
        'GET /api/v2/organizations/1/contacts': () => jsonResponse(200, { contacts: [] }),
        'POST /api/v2/organizations/1/contacts': () => jsonResponse(422, { errors: [{ field: 'first_name', code: 'taken', meta: {} }] }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Change' }));
    const dialog = await view.findByRole('dialog', { name: 'Change name' });
    within(dialog).getByText(/have not been saved/);
    await within(dialog).findByLabelText(/^First name(?! \()/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('has been duplicated within the same corporation.');
    expect(view.queryByRole('dialog')).to.not.equal(null);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    expect(calls('POST', '/api/v2/organizations/1/contacts')).to.have.length(1);
  });
});
