/**
 * Contacts and Billing Addresses (screens/contacts.json, billing-contacts.json; SPEC 2.12, §7 'Contacts'): the
 * organisation's records in a table with Edit and Delete; New and Edit open the form in a modal with its own title and
 * labels, the red warning and the required marks; success closes it, flashes and reloads; Delete asks first.
 */
// a DOM before React loads: React's change events choose their implementation from the document it finds then
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
// loaded here first: the dialog's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/screen/ModalForm.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse, settle } from '../../api/harness.js';
import { wireBillingContact, wireContact } from './fixtures.js';
import { MANAGER, renderScreen } from './support.js';

/** The visible stars (hidden from assistive technology) and the inputs that say they are required: the same fields. */
const requiredMarks = (dialog: HTMLElement) => [dialog.querySelectorAll('.field__required[aria-hidden="true"]').length, dialog.querySelectorAll(':is(input, select, textarea):required').length];

const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never).map((message) => message.messageKey);

const CONTACT = {
  id: 7,
  organizationId: 1,
  corporationName: '株式会社デモ',
  departmentName: '人事部',
  postalCode: '100-0005',
  address: '東京都千代田区丸の内1-1-1',
  lastName: '佐藤',
  firstName: '花子',
  kanaLastName: 'さとう',
  kanaFirstName: 'はなこ',
  phoneNumber: '03-1234-5678',
  email: 'hr@example.com',
};
const WIRE_CONTACT = wireContact();
const LIST = 'GET /api/v2/organizations/1/contacts';

/** Types into a field of the dialog and lets the form take the change (RJSF applies it after the event). */
async function type(dialog: HTMLElement, label: RegExp, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
  await settle();
}

describe('screens: Contacts and Billing Addresses (SPEC 2.12)', () => {
  afterEach(cleanup);

  it("Contacts: the organisation's contacts with Edit and Delete, or the empty text", async () => {
    const { view } = await renderScreen('contacts', { signedIn: MANAGER, routes: { [LIST]: () => jsonResponse(200, { contacts: [WIRE_CONTACT] }) } });
    const table = await view.findByRole('table', { name: 'Contacts of the organization' });
    const row = within(table).getAllByRole('row')[1]!;
    within(row).getByText('〒100-0005 東京都千代田区丸の内1-1-1');
    within(row).getByText('花子 佐藤');
    within(row).getByText('hr@example.com');
    within(row).getByRole('button', { name: 'Edit 株式会社デモ 人事部' });
    within(row).getByRole('button', { name: 'Delete 株式会社デモ 人事部' });
    cleanup();
    const empty = await renderScreen('contacts', { signedIn: MANAGER, routes: { [LIST]: () => jsonResponse(200, { contacts: [] }) } });
    await empty.view.findByText('No contacts have been registered yet.');
  });

  it('New: the modal with its title, warning, required marks and note; a click outside keeps it; Add posts, closes, flashes and reloads', async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('contacts', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { contacts: (loads += 1) === 1 ? [] : [WIRE_CONTACT] }),
        'POST /api/v2/organizations/1/contacts': () => jsonResponse(201, { contact: WIRE_CONTACT }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'New contact' }));
    const dialog = await view.findByRole('dialog', { name: 'Add contact' });
    within(dialog).getByText('Your input will disappear if you close this window without saving.');
    await within(dialog).findByLabelText(/^Corporate name/);
    within(dialog).getByText('* Required');
    // the fields after the form's first three come after its first paint
    await waitFor(() => expect(dialog.querySelector('.form-placeholder')).to.equal(null));
    expect(requiredMarks(dialog)).to.deep.equal([10, 10]);
    within(dialog).getByRole('button', { name: 'Cancel' });
    fireEvent.mouseDown(view.getByTestId('dialog-backdrop'));
    expect(view.queryByRole('dialog')).to.not.equal(null);

    await type(dialog, /^Corporate name/, CONTACT.corporationName);
    await type(dialog, /^Department/, CONTACT.departmentName);
    await type(dialog, /^Postal code/, CONTACT.postalCode);
    await type(dialog, /^Address/, CONTACT.address);
    await type(dialog, /^Last name \(person/, CONTACT.lastName);
    await type(dialog, /^First name \(person/, CONTACT.firstName);
    await type(dialog, /^Last name \(phonetic/, CONTACT.kanaLastName);
    await type(dialog, /^First name \(phonetic/, CONTACT.kanaFirstName);
    await type(dialog, /^Phone number/, CONTACT.phoneNumber);
    await type(dialog, /^Email/, ` ${CONTACT.email} `);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const { id: _id, organization_id: _organizationId, etag: _etag, ...fields } = WIRE_CONTACT;
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/contacts')[0]!.args[1])).to.deep.equal(fields);
    expect(flashes(store)).to.deep.equal(['contacts.new.done']);
    await view.findByText('hr@example.com');
    expect(loads).to.equal(2);
  });

  it("Edit: the modal filled with the row's values; Save sends PATCH on its id without id and organisation", async () => {
    const { view, calls, store } = await renderScreen('contacts', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { contacts: [WIRE_CONTACT] }),
        'PATCH /api/v2/organizations/1/contacts/7': () => jsonResponse(200, { contact: WIRE_CONTACT }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit 株式会社デモ 人事部' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit contact' });
    expect(((await within(dialog).findByLabelText(/^Address/)) as HTMLInputElement).value).to.equal(CONTACT.address);
    within(dialog).getByRole('button', { name: 'Discard changes' });
    await type(dialog, /^Address/, '東京都港区芝公園4-2-8');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const { id: _id, organization_id: _organizationId, etag, ...fields } = WIRE_CONTACT;
    const patch = calls('PATCH', '/api/v2/organizations/1/contacts/7')[0]!.args[1]!;
    expect(bodyOf(patch)).to.deep.equal({ ...fields, address: '東京都港区芝公園4-2-8' });
    expect((patch.headers as Record<string, string>)['if-match'], 'made on the version the list showed (issue 28)').to.equal(etag);
    expect(flashes(store)).to.deep.equal(['contacts.edit.done']);
  });

  it("Edit: the server's field errors stay in the dialog", async () => {
    const { view } = await renderScreen('contacts', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { contacts: [WIRE_CONTACT] }),
        'PATCH /api/v2/organizations/1/contacts/7': () => jsonResponse(422, { errors: [{ field: 'postal_code', code: 'invalid', meta: {} }] }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit 株式会社デモ 人事部' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit contact' });
    await within(dialog).findByLabelText(/^Postal code/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText('Please enter valid data.');
    expect(view.queryByRole('dialog')).to.not.equal(null);
  });

  it("Edit, changed meanwhile (412): the dialog keeps what was typed, says who and when, shows the latest side by side, and 'Save mine anyway' writes on the latest version", async () => {
    const latest = wireContact({ phone_number: '03-9999-0000', etag: '"102"' });
    const { view, calls, store } = await renderScreen('contacts', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { contacts: [WIRE_CONTACT] }),
        'GET /api/v2/organizations/1/contacts/7': () => jsonResponse(200, { contact: latest }),
        'PATCH /api/v2/organizations/1/contacts/7': (_url, init) =>
          (init.headers as Record<string, string>)['if-match'] === '"102"'
            ? jsonResponse(200, { contact: { ...latest, address: '東京都港区芝公園4-2-8', etag: '"103"' } })
            : jsonResponse(412, { error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit 株式会社デモ 人事部' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit contact' });
    await within(dialog).findByLabelText(/^Address/);
    await type(dialog, /^Address/, '東京都港区芝公園4-2-8');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).to.match(/^This was changed by 美咲 高橋 at .+ while you were editing\.$/);
    expect((within(dialog).getByLabelText(/^Address/) as HTMLInputElement).value, 'the draft stays').to.equal('東京都港区芝公園4-2-8');
    expect(flashes(store)).to.deep.equal([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Show the latest' }));
    const compared = await within(dialog).findByRole('table', { name: 'Your entry and the saved version' });
    const rows = within(compared).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).to.deep.equal([
      ['Address', '東京都港区芝公園4-2-8', '東京都千代田区丸の内1-1-1'],
      ['Phone number', '03-1234-5678', '03-9999-0000'],
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save mine anyway' }));
    await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
    const writes = calls('PATCH', '/api/v2/organizations/1/contacts/7').map((write) => (write.args[1]!.headers as Record<string, string>)['if-match']);
    expect(writes).to.deep.equal(['"101"', '"102"']);
    expect(bodyOf(calls('PATCH', '/api/v2/organizations/1/contacts/7')[1]!.args[1])).to.include({ address: '東京都港区芝公園4-2-8' });
    expect(flashes(store)).to.deep.equal(['contacts.edit.done']);
  });

  it('Delete, changed meanwhile (412): nothing deleted, the flash says who and when, and the list is read again', async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('contacts', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { contacts: [WIRE_CONTACT], loads: (loads += 1) }),
        'DELETE /api/v2/organizations/1/contacts/7': () => jsonResponse(412, { error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Delete 株式会社デモ 人事部' }));
    fireEvent.click(within(await view.findByRole('dialog', { name: 'Delete contact' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(flashes(store)).to.deep.equal(['errors.changedMeanwhile']));
    expect((calls('DELETE', '/api/v2/organizations/1/contacts/7')[0]!.args[1]!.headers as Record<string, string>)['if-match']).to.equal('"101"');
    await waitFor(() => expect(loads).to.equal(2));
  });

  it('Delete: asks first, naming the contact; confirmed, DELETE on its id, the flash and the list again', async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('contacts', {
      signedIn: MANAGER,
      routes: {
        [LIST]: () => jsonResponse(200, { contacts: (loads += 1) === 1 ? [WIRE_CONTACT] : [] }),
        'DELETE /api/v2/organizations/1/contacts/7': () => new Response(null, { status: 204 }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Delete 株式会社デモ 人事部' }));
    const dialog = await view.findByRole('dialog', { name: 'Delete contact' });
    within(dialog).getByText('Delete the contact 株式会社デモ 人事部 (花子 佐藤)?');
    expect(calls('DELETE', '/api/v2/organizations/1/contacts/7')).to.have.length(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(flashes(store)).to.deep.equal(['contacts.delete.done']));
    expect(calls('DELETE', '/api/v2/organizations/1/contacts/7')).to.have.length(1);
    await view.findByText('No contacts have been registered yet.');
  });

  it('Billing Addresses: To and CC, the company name when no addressee; the form has the To/CC e-mails and the addressee hint, optional', async () => {
    const billingContact = wireBillingContact({ phone_number: '0312345600', email: 'accounting@example.com', cc_email: 'cc@example.com' });
    const { view } = await renderScreen('billingContacts', {
      signedIn: MANAGER,
      routes: { 'GET /api/v2/organizations/1/billing_contacts': () => jsonResponse(200, { billing_contacts: [billingContact] }) },
    });
    const table = await view.findByRole('table', { name: 'Billing addresses of the organization' });
    const row = within(table).getAllByRole('row')[1]!;
    within(row).getByText('(company name)');
    within(row).getByText('To: accounting@example.com');
    within(row).getByText('CC: cc@example.com');
    fireEvent.click(within(row).getByRole('button', { name: 'Edit 株式会社デモ 経理部' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit billing address' });
    expect(((await within(dialog).findByLabelText(/^To e-mail/)) as HTMLInputElement).value).to.equal('accounting@example.com');
    within(dialog).getByLabelText(/^CC e-mail/);
    within(dialog).getByText('When left blank, the company name is printed.');
    expect(requiredMarks(dialog)).to.deep.equal([8, 8]);
  });
});
