import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse, settle } from '../../api/harness.js';
import { leadBlocks } from '../../../../src/client/engine/screen/ScreenView.js';
import { MANAGER, MEMBER, renderScreen } from './support.js';

const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never).map((message) => message.messageKey);

const admin = (
  id: number,
  role: 'manager' | 'member',
  names: Partial<Record<'firstName' | 'lastName' | 'kanaFirstName' | 'kanaLastName', string>>,
  email: string,
  activatedAt: string | null = '2026-01-01T00:00:00Z',
  invitationExpiresAt: string | null = activatedAt ? null : '2026-12-01T09:00:00Z',
) => ({
  role,
  etag: `"${role}.${id}"`,
  admin: { id, firstName: '', lastName: '', kanaFirstName: '', kanaLastName: '', ...names, email, activatedAt, invitationExpiresAt, invitationExpired: !activatedAt && !invitationExpiresAt },
});

const AFFILIATIONS = {
  affiliations: [
    admin(1, 'manager', { firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ' }, 'manager@example.com'),
    admin(2, 'member', { firstName: '花子', lastName: '佐藤', kanaFirstName: 'はなこ', kanaLastName: 'さとう' }, 'member@example.com'),
    admin(3, 'member', {}, 'pending@example.com', null),
  ],
};
const LIST = 'GET /api/v2/organizations/1/affiliations';
/** The organisation's sign-in rule the page reads beside the list (issue 29): not required. */
const RULE = { 'GET /api/v2/organizations/1/sign_in_rule': () => jsonResponse(200, { two_step_required: false, etag: '"rule.off"' }) };

describe('engine/screen: screens from configuration', () => {
  afterEach(cleanup);

  describe('text blocks by navigation state (/token/expired, /token/sent)', () => {
    it('activation texts and the restart link to /activation/start by default', async () => {
      const { view } = await renderScreen('tokenExpired', { state: { errorCode: 'token_expired' } });
      view.getByText('This activation link has expired or has already been used.');
      expect(view.getByRole('alert').textContent).to.contain('activation link has expired');
      expect(view.getByRole('link', { name: 'Request a new activation mail' }).getAttribute('href')).to.equal('/activation/start');
    });

    it('reset texts for flow passwordReset; the restart link to /password/reset/start for from passwordReset', async () => {
      const { view } = await renderScreen('tokenExpired', { state: { flow: 'passwordReset', from: 'passwordReset', errorCode: 'token_used' } });
      view.getByText('This password-reset link has expired or has already been used.');
      expect(view.getByRole('link', { name: 'Request a new password-reset mail' }).getAttribute('href')).to.equal('/password/reset/start');
      expect(view.queryByText('This activation link has expired or has already been used.')).to.equal(null);
    });

    it('no restart link for already_activated: sign in instead', async () => {
      const { view } = await renderScreen('tokenExpired', { state: { errorCode: 'already_activated' } });
      expect(view.queryByRole('link', { name: /Request a new/ })).to.equal(null);
      view.getByText(/already been activated/);
      expect(view.getByRole('link', { name: 'Sign in' }).getAttribute('href')).to.equal('/signin');
    });

    it('the sent page shows the texts of the flow in navigation state', async () => {
      (await renderScreen('tokenSent', { state: { flow: 'activation' } })).view.getByText(/mail with an activation link/);
      cleanup();
      const reset = (await renderScreen('tokenSent', { state: { flow: 'passwordReset' } })).view;
      reset.getByText(/link to reset the password/);
      expect(reset.queryByText(/mail with an activation link/)).to.equal(null);
    });
  });

  describe('details and cards', () => {
    it('My Account: the name through the locale format, the masked password, the e-mail, links by screen id', async () => {
      const { view } = await renderScreen('account', { signedIn: { role: 'member', me: { id: 2, firstName: 'Hanako', lastName: 'Sato', kanaFirstName: 'はなこ', kanaLastName: 'さとう', email: 'member@example.com' } } });
      view.getByText('Hanako Sato (はなこ さとう)');
      view.getByText('********');
      view.getByText('member@example.com');
      expect(view.getByRole('link', { name: 'Change name' }).getAttribute('href')).to.equal('/account/name/edit');
      expect(view.getByRole('link', { name: 'Change password' }).getAttribute('href')).to.equal('/account/password/edit');
    });

    it('Home: the loader, then a card per service loaded in the page language, linking to its Service Details', async () => {
      const services = { services: [{ id: 1, name: 'Hodai', subtitle: '', summary: 'Line one\nLine two', thumbnailUrl: null, serviceGroup: { id: 1, name: 'hodai' } }] };
      let answer!: () => void;
      const answered = new Promise<Response>((resolve) => (answer = () => resolve(jsonResponse(200, services))));
      const { view, calls } = await renderScreen('home', { signedIn: MEMBER, routes: { 'GET /api/v2/services': () => answered } });
      view.getByRole('status');
      answer();
      await view.findByRole('heading', { name: 'Hodai' });
      expect(view.getByRole('link', { name: 'Hodai' }).getAttribute('href'), 'the card links to Service Details').to.equal('/services/1');
      view.getByRole('heading', { name: 'Available services' });
      view.getByText('Line two');
      expect(calls('GET', '/api/v2/services')[0]!.args[0]).to.contain('lang=en');
    });
  });

  describe('while the data loads', () => {
    it('Users: its lead is shown above the loader, and the list comes below it, the lead staying the same element', async () => {
      let answer!: () => void;
      const answered = new Promise<Response>((resolve) => (answer = () => resolve(jsonResponse(200, { users: [] }))));
      const { view } = await renderScreen('users', { signedIn: MANAGER, routes: { 'GET /api/v2/organizations/1/users': () => answered } });
      const lead = await view.findByText(/^The learners of your organisation\./);
      view.getByRole('status');
      expect(view.queryByRole('button', { name: 'CSV download' }), 'nothing that needs the data').to.equal(null);
      answer();
      await view.findByRole('button', { name: 'CSV download' });
      expect(view.queryByRole('status')).to.equal(null);
      expect(view.getByText(/^The learners of your organisation\./)).to.equal(lead);
    });

    it('leads with the texts before the first block that has a condition, reads the data or is no text', () => {
      const lead = { type: 'text', text: 'users.description', style: 'lead' } as const;
      const byMe = { type: 'text', text: 'roles.multipleOrganizations', values: { name: '$me.firstName' } } as const;
      const byData = { type: 'text', text: 'subscriptionDetails.groupName', values: { name: '$data.subscription.name' } } as const;
      const guarded = { type: 'text', text: 'users.description', when: { required: ['local'] } } as const;
      const upload = { type: 'upload', label: 'users.upload', action: 'preview' } as const;
      expect(leadBlocks([lead, byMe, upload, lead])).to.deep.equal([lead, byMe]);
      expect(leadBlocks([lead, byData])).to.deep.equal([lead]);
      expect(leadBlocks([guarded, lead])).to.deep.equal([]);
      expect(leadBlocks([lead])).to.deep.equal([lead]);
    });
  });

  describe('Manage Admin Accounts (SPEC 2.13)', () => {
    it('a manager: invite link, hint, rows with the not-activated mark, own role as text, others with a role select and Delete', async () => {
      const { view } = await renderScreen('memberships', { signedIn: MANAGER, routes: { ...RULE, [LIST]: () => jsonResponse(200, AFFILIATIONS) } });
      const table = await view.findByRole('table', { name: 'Admins of the organization' });
      expect(view.getByRole('link', { name: 'Invite manager' }).getAttribute('href')).to.equal('/membership/invite');
      view.getByText(/Principal Admins can invite admins/);
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows).to.have.length(3);
      within(rows[0]!).getByText('Principal Admin');
      expect(within(rows[0]!).queryByRole('combobox')).to.equal(null);
      expect(within(rows[0]!).queryByRole('button')).to.equal(null);
      within(rows[1]!).getByText('花子 佐藤');
      within(rows[1]!).getByText('はなこ さとう');
      expect((within(rows[1]!).getByRole('combobox', { name: 'Role of member@example.com' }) as HTMLSelectElement).value).to.equal('member');
      within(rows[1]!).getByRole('button', { name: 'Delete member@example.com' });
      within(rows[2]!).getByText('Account not yet activated');
      within(rows[2]!).getByText('pending@example.com');
      expect(view.queryByText('Your organization has no Principal Admin')).to.equal(null);
    });

    it('a not-activated row says until when its invitation works, or that it expired; a manager sends it again', async () => {
      const withExpired = { affiliations: [...AFFILIATIONS.affiliations, admin(4, 'member', {}, 'late@example.com', null, null)] };
      let loads = 0;
      const { view, calls, store } = await renderScreen('memberships', {
        signedIn: MANAGER,
        routes: { ...RULE,
          [LIST]: () => ((loads += 1), jsonResponse(200, withExpired)),
          'POST /api/v2/organizations/1/affiliations/admins/3/invitation': () => jsonResponse(200, { affiliation: withExpired.affiliations[2] }),
        },
      });
      const table = await view.findByRole('table');
      const rows = within(table).getAllByRole('row').slice(1);
      within(rows[2]!).getByText('Invitation valid until 2026-12-01');
      within(rows[3]!).getByText('Invitation expired');
      expect(within(rows[1]!).queryByRole('button', { name: /Resend/ })).to.equal(null);
      fireEvent.click(within(rows[2]!).getByRole('button', { name: 'Resend invitation to pending@example.com' }));
      await waitFor(() => expect(flashes(store)).to.deep.equal(['memberships.invitation.sent']));
      expect(calls('POST', '/api/v2/organizations/1/affiliations/admins/3/invitation')[0]!.args[0]).to.contain('lang=en');
      await waitFor(() => expect(loads).to.equal(2));
    });

    it('a member: role texts only, no invite link, no selects, no Delete', async () => {
      const { view } = await renderScreen('memberships', { signedIn: MEMBER, routes: { ...RULE, [LIST]: () => jsonResponse(200, AFFILIATIONS) } });
      await view.findByRole('table');
      expect(view.queryByRole('link', { name: 'Invite manager' })).to.equal(null);
      expect(view.queryAllByRole('combobox')).to.have.length(0);
      expect(view.queryAllByRole('button', { name: /Delete/ })).to.have.length(0);
      expect(view.getAllByText('Support Admin')).to.have.length(2);
    });

    it('after an invitation: the closable banner naming the address instead of the invite link', async () => {
      const { view } = await renderScreen('memberships', { signedIn: MANAGER, state: { email: 'new@example.com' }, routes: { ...RULE, [LIST]: () => jsonResponse(200, AFFILIATIONS) } });
      await view.findByRole('table');
      view.getByText(/An invitation has been sent to new@example.com/);
      expect(view.queryByRole('link', { name: 'Invite manager' })).to.equal(null);
      fireEvent.click(view.getByRole('button', { name: 'Close' }));
      expect(view.queryByText(/An invitation has been sent/)).to.equal(null);
    });

    it('an organisation without a manager: the information panel with the corporate application ID', async () => {
      const onlyMembers = { affiliations: [AFFILIATIONS.affiliations[1]] };
      const { view } = await renderScreen('memberships', { signedIn: MEMBER, routes: { ...RULE, [LIST]: () => jsonResponse(200, onlyMembers) } });
      const panel = await view.findByRole('region', { name: 'Your organization has no Principal Admin' });
      within(panel).getByText('Your corporate application ID: G0000001');
      within(panel).getByRole('link', { name: 'Inquiry form' });
    });

    it('role change: the dialog names the admin and the new role; Escape cancels; choosing the current role does nothing', async () => {
      const { view, calls } = await renderScreen('memberships', { signedIn: MANAGER, routes: { ...RULE, [LIST]: () => jsonResponse(200, AFFILIATIONS) } });
      await view.findByRole('table');
      const select = view.getByRole('combobox', { name: 'Role of member@example.com' });
      fireEvent.change(select, { target: { value: 'member' } });
      await settle();
      expect(view.queryByRole('dialog')).to.equal(null);

      fireEvent.change(select, { target: { value: 'manager' } });
      const dialog = await view.findByRole('dialog', { name: 'Assign role' });
      within(dialog).getByText('Change the role of 花子 佐藤 to Principal Admin?');
      fireEvent.keyDown(dialog, { key: 'Escape' });
      await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));
      await settle();
      expect(calls('PATCH', '/api/v2/organizations/1/affiliations/admins/2')).to.have.length(0);
      expect((view.getByRole('combobox', { name: 'Role of member@example.com' }) as HTMLSelectElement).value).to.equal('member');
    });

    it('role change confirmed: PATCH {role}, the flash, and the list loaded again', async () => {
      const changed = { affiliations: [AFFILIATIONS.affiliations[0], { ...AFFILIATIONS.affiliations[1], role: 'manager' }, AFFILIATIONS.affiliations[2]] };
      let loads = 0;
      const { view, calls, store } = await renderScreen('memberships', {
        signedIn: MANAGER,
        routes: { ...RULE,
          [LIST]: () => jsonResponse(200, (loads += 1) === 1 ? AFFILIATIONS : changed),
          'PATCH /api/v2/organizations/1/affiliations/admins/2': () => jsonResponse(200, { affiliation: changed.affiliations[1] }),
        },
      });
      await view.findByRole('table');
      fireEvent.change(view.getByRole('combobox', { name: 'Role of member@example.com' }), { target: { value: 'manager' } });
      fireEvent.click(within(await view.findByRole('dialog')).getByRole('button', { name: 'Change' }));
      await waitFor(() => expect((view.getByRole('combobox', { name: 'Role of member@example.com' }) as HTMLSelectElement).value).to.equal('manager'));
      expect(bodyOf(calls('PATCH', '/api/v2/organizations/1/affiliations/admins/2')[0]!.args[1])).to.deep.equal({ role: 'manager' });
      expect(flashes(store)).to.deep.equal(['memberships.changeRole.done']);
      expect(loads).to.equal(2);
    });

    it("shows who signs in in two steps and the organisation's rule; a manager requires it after a confirmation (issue 29), on the rule's version shown (If-Match, issue 44)", async () => {
      const twoStepRows = { affiliations: AFFILIATIONS.affiliations.map((row, index) => ({ ...row, admin: { ...row.admin, twoStep: index === 0 } })) };
      let required = false;
      const { view, calls, store } = await renderScreen('memberships', {
        signedIn: MANAGER,
        routes: { ...RULE,
          [LIST]: () => jsonResponse(200, twoStepRows),
          'GET /api/v2/organizations/1/sign_in_rule': () => jsonResponse(200, { two_step_required: required, etag: required ? '"rule.on"' : '"rule.off"' }),
          'PUT /api/v2/organizations/1/sign_in_rule': () => jsonResponse(200, { two_step_required: (required = true), etag: '"rule.on"' }),
        },
      });
      const table = await view.findByRole('table');
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows.map((row) => within(row).getByText(/^(On|Off)$/).textContent)).to.deep.equal(['On', 'Off', 'Off']);
      await view.findByText(/may sign in with a password only/);
      fireEvent.click(view.getByRole('button', { name: 'Require two-step sign-in for every admin of this organisation' }));
      fireEvent.click(within(await view.findByRole('dialog')).getByRole('button', { name: 'Require' }));
      await waitFor(() => expect(flashes(store)).to.deep.equal(['memberships.twoStep.requiredNow']));
      const [put] = calls('PUT', '/api/v2/organizations/1/sign_in_rule');
      expect(bodyOf(put!.args[1])).to.deep.equal({ two_step_required: true });
      expect((put!.args[1]!.headers as Record<string, string>)['if-match'], 'made on the version shown (issue 44)').to.equal('"rule.off"');
      await view.findByRole('button', { name: 'Stop requiring two-step sign-in' });
    });

    it("role change or delete, changed meanwhile (412): made on the row's version (If-Match), nothing changed, the flash says who and when, the list read again", async () => {
      let loads = 0;
      const changed = () => jsonResponse(412, { error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' });
      const { view, calls, store } = await renderScreen('memberships', {
        signedIn: MANAGER,
        routes: { ...RULE, [LIST]: () => jsonResponse(200, { ...AFFILIATIONS, loads: (loads += 1) }), 'PATCH /api/v2/organizations/1/affiliations/admins/2': changed, 'DELETE /api/v2/organizations/1/affiliations/admins/2': changed },
      });
      await view.findByRole('table');
      fireEvent.change(view.getByRole('combobox', { name: 'Role of member@example.com' }), { target: { value: 'manager' } });
      fireEvent.click(within(await view.findByRole('dialog')).getByRole('button', { name: 'Change' }));
      await waitFor(() => expect(flashes(store)).to.deep.equal(['errors.changedMeanwhile']));
      await waitFor(() => expect(loads).to.equal(2));
      fireEvent.click(view.getByRole('button', { name: 'Delete member@example.com' }));
      fireEvent.click(within(await view.findByRole('dialog', { name: 'Delete membership' })).getByRole('button', { name: 'Delete now' }));
      await waitFor(() => expect(loads).to.equal(3));
      const ifMatch = (method: string) => (calls(method, '/api/v2/organizations/1/affiliations/admins/2')[0]!.args[1]!.headers as Record<string, string>)['if-match'];
      expect([ifMatch('PATCH'), ifMatch('DELETE')]).to.deep.equal(['"member.2"', '"member.2"']);
    });

    it('delete: the dialog with the e-mail of an admin without a name and a red Delete now; a backdrop click cancels', async () => {
      const { view, calls, store } = await renderScreen('memberships', {
        signedIn: MANAGER,
        routes: { ...RULE, [LIST]: () => jsonResponse(200, AFFILIATIONS), 'DELETE /api/v2/organizations/1/affiliations/admins/3': () => new Response(null, { status: 204 }) },
      });
      await view.findByRole('table');
      fireEvent.click(view.getByRole('button', { name: 'Delete pending@example.com' }));
      let dialog = await view.findByRole('dialog', { name: 'Delete membership' });
      within(dialog).getByText('pending@example.com (Support Admin)');
      fireEvent.mouseDown(view.getByTestId('dialog-backdrop'));
      await waitFor(() => expect(view.queryByRole('dialog')).to.equal(null));

      fireEvent.click(view.getByRole('button', { name: 'Delete pending@example.com' }));
      dialog = await view.findByRole('dialog', { name: 'Delete membership' });
      const confirm = within(dialog).getByRole('button', { name: 'Delete now' });
      expect(confirm.className).to.contain('button--danger');
      fireEvent.click(confirm);
      await waitFor(() => expect(flashes(store)).to.deep.equal(['memberships.delete.done']));
      expect(calls('DELETE', '/api/v2/organizations/1/affiliations/admins/3')).to.have.length(1);
    });

    it('a failed delete gets the general handling and the list is loaded again', async () => {
      let loads = 0;
      const { view, store } = await renderScreen('memberships', {
        signedIn: MANAGER,
        routes: { ...RULE,
          [LIST]: () => ((loads += 1), jsonResponse(200, AFFILIATIONS)),
          'DELETE /api/v2/organizations/1/affiliations/admins/2': () => jsonResponse(409, { error: 'admin_already_deleted' }),
        },
      });
      await view.findByRole('table');
      fireEvent.click(view.getByRole('button', { name: 'Delete member@example.com' }));
      fireEvent.click(within(await view.findByRole('dialog')).getByRole('button', { name: 'Delete now' }));
      await waitFor(() => expect(flashes(store)).to.deep.equal(['errors.adminAlreadyDeleted']));
      await waitFor(() => expect(loads).to.equal(2));
    });
  });

  describe('Admin Permissions (SPEC 2.14)', () => {
    it('the product roles with their about-role links (new tab), in the page language', async () => {
      const roles = { productAdminRoles: [{ productName: 'Hodai', role: 'Administrator', helpUrl: 'https://help.example.com/hodai' }] };
      const { view, calls } = await renderScreen('roles', {
        signedIn: MEMBER,
        flags: { product_admin_roles: true },
        routes: { 'GET /api/v2/organizations/1/product_admin_roles': () => jsonResponse(200, roles) },
      });
      const link = await view.findByRole('link', { name: 'About this role' });
      expect(link.getAttribute('href')).to.equal('https://help.example.com/hodai');
      expect(link.getAttribute('target')).to.equal('_blank');
      view.getByText('Administrator');
      view.getByText(/the organization you chose when you signed in/);
      expect(calls('GET', '/api/v2/organizations/1/product_admin_roles')[0]!.args[0]).to.contain('lang=en');
    });

    it('a failed load says so, without the general handling', async () => {
      const { view, store, calls } = await renderScreen('roles', {
        signedIn: MEMBER,
        routes: { 'GET /api/v2/organizations/1/product_admin_roles': () => jsonResponse(500, { error: 'internal_error' }) },
      });
      await waitFor(() => expect(flashes(store)).to.deep.equal(['roles.loadFailed']));
      expect(calls('POST', '/api/v2/client_errors')).to.have.length(0);
      view.getByText('You have no permissions for the services in this organization.');
    });
  });
});
