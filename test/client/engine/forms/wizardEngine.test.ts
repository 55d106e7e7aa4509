/**
 * What the engine gained for the application wizards (SPEC 2.11), each generic: a check call before the confirm step
 * (the dry run), named payload rules, fields set from an outcome (a modal form's saved record), initial values with
 * alternatives, uiSchema bindings to the screen context, server messages under a form's own prefix, the first field
 * in error's anchor.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { bindUiSchema, clearedFields, withClearedFields } from '../../../../src/client/engine/forms/bindings.js';
import { anchorOf, firstFieldInError, sameData } from '../../../../src/client/engine/forms/FormScreen.js';
import { submitForm } from '../../../../src/client/engine/forms/formSaga.js';
import { formChanged, formChecked, formFieldsSet, formsReducer, formSubmitted, selectForm, type FormsRootState } from '../../../../src/client/engine/forms/formState.js';
import { callFunction, functions } from '../../../../src/client/engine/forms/functions.js';
import { initialDataOf } from '../../../../src/client/engine/forms/pathParams.js';
import { fieldPathOf } from '../../../../src/client/engine/forms/SchemaForm.js';
import { formServerMessage, serverErrorsToErrorSchema } from '../../../../src/client/engine/forms/validationMessages.js';
import { applyOutcome } from '../../../../src/client/engine/screen/calls.js';
import { screenById } from '../../../../src/client/engine/screen/navigation.js';
import { loadScreen } from '../../../../src/client/engine/screen/screenModule.js';
import type { InitialAlternatives } from '../../../../src/common/screens.js';
import type { UiSchema } from '@rjsf/utils';
import { screenDataReducer, screenEntered } from '../../../../src/client/engine/screen/screenDataState.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../../src/client/state/session.js';
import { bodyOf, jsonResponse, setup, type Route } from '../../api/harness.js';

// the full definitions (the first load has each screen's route entry only)
await Promise.all(['subscription-new'].map((id) => loadScreen(id)));

function signedIn(routes: Record<string, Route>) {
  const harness = setup({ routes, reducers: { forms: formsReducer, screenData: screenDataReducer } });
  harness.store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 })));
  harness.store.dispatch(organizationSelected({ organization: { id: 7, gloplaId: 'G0000007' }, me: { id: 42, firstName: 'f', lastName: 'l' } }));
  harness.store.dispatch(screenEntered({ screenId: 'subscription-new', context: {} }));
  return harness;
}
const form = (harness: ReturnType<typeof signedIn>) => selectForm(harness.store.getState() as unknown as FormsRootState, 'subscription-new');
const t = (key: string, values?: Record<string, unknown>) => (values ? `${key}:${JSON.stringify(values)}` : key);

describe('engine/forms: what the application wizards need (SPEC 2.11)', () => {
  describe('a check call before the confirm step (the dry run)', () => {
    const submission = (outcomes = [{ on: 'success' as const, set: { answer: '$body' } }]) =>
      formSubmitted({
        formId: 'subscription-new',
        call: { method: 'POST', path: 'organizations/:orgId/corporate_subscriptions', query: { dryrun: 'true' } },
        context: {},
        data: { serviceIds: [14], projectClassId: 21, contactId: 7, billingContactId: 3 },
        outcomes,
        screenId: 'subscription-new',
        transform: { name: 'subscription', values: { mode: 'create' } },
        check: true,
        confirmPath: '/subscription/group/2/new/confirm',
        donePath: '/subscription/group/2/new/done',
      });

    it('sends the data through the payload rule; success keeps the answer ($local), marks the form checked and goes to confirm, not done', async () => {
      const harness = signedIn({ 'POST /api/v2/organizations/7/corporate_subscriptions': () => jsonResponse(200, { corporate_subscription: { request_code: '' }, warnings: { users: [], codes: [] } }) });
      await harness.run(submitForm, submission()).toPromise();
      const call = harness.calls('POST', '/api/v2/organizations/7/corporate_subscriptions')[0]!;
      expect(call.args[0]).to.match(/\?dryrun=true$/);
      // a class drops the contact ids (SPEC §7)
      expect(bodyOf(call.args[1])).to.deep.equal({ service_ids: [14], project_class_id: 21 });
      expect(form(harness).status).to.equal('checked');
      const local = (harness.store.getState() as unknown as { screenData: Record<string, { local: Record<string, unknown> }> }).screenData['subscription-new']!.local;
      expect(local.answer).to.deep.equal({ corporateSubscription: { requestCode: '' }, warnings: { users: [], codes: [] } });
      expect(harness.navigate.calledOnceWith('/subscription/group/2/new/confirm')).to.equal(true);
    });

    it('a 422 stays on the form with its field errors, without going on', async () => {
      const harness = signedIn({ 'POST /api/v2/organizations/7/corporate_subscriptions': () => jsonResponse(422, { errors: [{ field: 'starts_on', code: 'outOfRange' }] }) });
      await harness.run(submitForm, submission()).toPromise();
      expect(form(harness).status).to.equal('failed');
      expect(form(harness).fieldErrors).to.deep.equal([{ field: 'startsOn', code: 'outOfRange' }]);
      expect(harness.navigate.called).to.equal(false);
    });

    it('an edit after the check makes it stale: the form is idle again (the confirm step needs a new check)', () => {
      let state = formsReducer(undefined, formChanged({ formId: 'w', data: { a: 1 } }));
      state = formsReducer(state, formChecked({ formId: 'w', result: {} }));
      expect(state.w!.status).to.equal('checked');
      state = formsReducer(state, formChanged({ formId: 'w', data: { a: 2 } }));
      expect(state.w!.status).to.equal('idle');
    });

    it('a payload rule the engine does not know is a defect for the general handling, and nothing is sent', async () => {
      const harness = signedIn({});
      await harness.run(submitForm, { ...submission(), payload: { ...submission().payload, transform: { name: 'nothing' } } }).toPromise();
      expect(harness.calls('POST', '/api/v2/organizations/7/corporate_subscriptions')).to.have.length(0);
      expect(form(harness).status).to.equal('failed');
      expect(selectFlashMessages(harness.store.getState() as never)).to.have.length(1);
    });
  });

  describe("fields set from an outcome (SPEC 2.12: the form's contactId becomes the saved record's id)", () => {
    it('an outcome with setFields sets the fields of the screen’s form from the answer', async () => {
      const harness = signedIn({});
      harness.store.dispatch(formChanged({ formId: 'subscription-new', data: { serviceIds: [14], contactId: 7 } }));
      await harness.run(applyOutcome, { on: 'success', setFields: { contactId: '$body.contact.id' } }, { body: { contact: { id: 12 } } }, undefined, 'subscription-new').toPromise();
      expect(form(harness).data).to.deep.equal({ serviceIds: [14], contactId: 12 });
    });

    it('before the form has a draft, the values are laid over its initial data (overrides), not in place of it', () => {
      const state = formsReducer(undefined, formFieldsSet({ formId: 'w', values: { contactId: 12 } }));
      expect(state.w!.data).to.deep.equal({});
      expect(state.w!.overrides).to.deep.equal({ contactId: 12 });
    });
  });

  describe('initial values by field', () => {
    const context = {
      data: {
        subscription: { corporateSubscription: { contactId: null, admins: [{ id: 1 }, { id: 5 }], projectClass: null } },
        contacts: { contacts: [{ id: 6 }, { id: 7 }] },
        services: { services: [{ id: 30 }] },
      },
    };
    it('a list takes its first alternative with a value: the own contact, else the last of the list, else 0; `*` maps a list', () => {
      const initial = initialDataOf(
        {
          contactId: ['$data.subscription.corporateSubscription.contactId', '$data.contacts.contacts.-1.id', 0],
          billingContactId: ['$data.billingContacts.billingContacts.-1.id', 0],
          adminIds: '$data.subscription.corporateSubscription.admins.*.id',
          projectClassId: ['$data.subscription.corporateSubscription.projectClass.id', 0],
        },
        context,
        ['contactId', 'billingContactId', 'adminIds', 'projectClassId'],
      );
      expect(initial).to.deep.equal({ contactId: 7, billingContactId: 0, adminIds: [1, 5], projectClassId: 0 });
    });
    it("an alternative with a condition counts only where it holds (the new wizard: a group of one service has it chosen)", () => {
      const { initialData } = screenById('subscription-new').form!;
      const serviceIds = (initialData as Record<string, unknown>).serviceIds as InitialAlternatives;
      expect(initialDataOf({ serviceIds }, context, ['serviceIds'])).to.deep.equal({ serviceIds: [30] });
      const two = { data: { services: { services: [{ id: 30 }, { id: 31 }] } } };
      expect(initialDataOf({ serviceIds }, two, ['serviceIds'])).to.deep.equal({});
    });
  });

  describe("ui:bind: a field bound to the screen context (the new wizard's uiSchema)", () => {
    const uiSchema = screenById('subscription-new').form!.uiSchema as UiSchema;
    const emba = { identifier: 'emba', selection: 'multi' };
    const services = [
      { id: 13, name: 'Marketing', subtitle: 'Subject 1', discontinued: false, lastStartsOn: null },
      { id: 14, name: 'Accounting', subtitle: 'Subject 2', discontinued: true, lastStartsOn: '2026-12-15' },
    ];
    const data = {
      group: { serviceGroup: emba },
      services: { services },
      classes: { projectClasses: { bundled: [{ id: 21, name: 'BND-1' }], gls: [] } },
      contacts: { contacts: [{ id: 7 }] },
      billingContacts: { billingContacts: [{ id: 3 }] },
      affiliations: { affiliations: [{ admin: { id: 1, lastName: '山田', firstName: '太郎', email: 'a@example.com', activatedAt: '2025-01-01T00:00:00Z' } }, { admin: { id: 9, lastName: '', firstName: '', email: 'b@example.com', activatedAt: null } }] },
    };
    const bind = (form: Record<string, unknown>, extra: Record<string, unknown> = {}) => bindUiSchema(uiSchema, { data, today: '2026-11-27', time: Date.parse('2026-01-01T00:00:00Z'), language: 'en', form, ...extra }, t) as Record<string, any>;

    it('resolves choices from the data (mapped, translated, filtered, disabled by condition), the display and title by the group, the anchor kept', () => {
      const bound = bind({ projectClassId: 0, serviceIds: [13] });
      expect(bound.serviceIds['ui:title']).to.equal('subscriptions.fields.subjects');
      expect(bound.serviceIds['ui:options']).to.deep.include({ anchor: 'services', display: 'cards', multiple: true });
      expect(bound.serviceIds['ui:options'].choices).to.deep.equal([
        { value: 13, label: 'Marketing', description: 'Subject 1', disabled: false },
        { value: 14, label: 'Accounting', description: 'Subject 2', disabled: true },
      ]);
      // only activated admins, named by a locale key given the person (the words write the name by the language's rule)
      const person = { id: 1, lastName: '山田', firstName: '太郎', email: 'a@example.com', activatedAt: '2025-01-01T00:00:00Z' };
      expect(bound.adminIds['ui:options'].choices).to.deep.equal([{ value: 1, label: `subscriptions.wizard.adminName:${JSON.stringify({ person })}`, description: 'a@example.com' }]);
      expect(bound.contactId['ui:options'].records).to.deep.equal([{ id: 7 }]);
      expect(bound['ui:order']).to.equal(uiSchema['ui:order']);
    });

    it("the start date's bounds from the shared rules (Friday: 4 days later; capped by the chosen services' last start date) and the emba notice", () => {
      expect(bind({ serviceIds: [13] }).startsOn['ui:options']).to.deep.include({ min: '2026-12-01', max: '2027-05-27' });
      expect(bind({ serviceIds: [13, 14] }).startsOn['ui:options'].max).to.equal('2026-12-15');
      expect(bind({}).startsOn['ui:options'].notes.map((note: { text: string; style: string }) => [note.text, note.style])).to.deep.equal([['subscriptions.wizard.hints.embaNotice', 'danger']]);
    });

    it("the earliest start date counts the portal settings' closed days (issue 30): a holiday in the window moves it a day", () => {
      // Friday 2026-11-27: +4 is Tuesday 12-01; Monday 11-30 closed moves it to Wednesday 12-02
      expect(bind({ serviceIds: [13] }, { closedDays: ['2026-11-30'] }).startsOn['ui:options'].min).to.equal('2026-12-02');
      expect(bind({ serviceIds: [13] }, { closedDays: ['2026-12-10'] }).startsOn['ui:options'].min, 'a closed day after the window').to.equal('2026-12-01');
    });

    it("hodaiplus: the notice's wording switches at 2025-07-31 00:00 +09:00 (a dated condition)", () => {
      const hodaiplus = { ...data, group: { serviceGroup: { identifier: 'hodaiplus', selection: 'single' } } };
      const notes = (time: number) => (bindUiSchema(uiSchema, { data: hodaiplus, today: '2025-07-01', time, form: {} }, t) as Record<string, any>).startsOn['ui:options'].notes.map((note: { text: string }) => note.text);
      expect(notes(Date.parse('2025-07-30T14:59:59Z'))).to.deep.equal(['subscriptions.wizard.hints.hodaiplusNotice']);
      expect(notes(Date.parse('2025-07-30T15:00:00Z'))).to.deep.equal(['subscriptions.wizard.hints.hodaiplusNoticeAfterSwitch']);
    });

    it('a chosen class: the contacts disabled with their notes, the billing note hidden; no bundled classes: the class dropdown hidden', () => {
      const withClass = bind({ projectClassId: 21 });
      expect(withClass.contactId['ui:disabled']).to.equal(true);
      expect(withClass.billingContactId['ui:disabled']).to.equal(true);
      expect(withClass.contactId['ui:options'].notes.map((note: { text: string }) => note.text)).to.deep.equal(['subscriptions.wizard.hints.contactWithClass']);
      expect(withClass.billingNote['ui:widget']).to.equal('hidden');
      const none = bindUiSchema(uiSchema, { data: { ...data, classes: { projectClasses: { bundled: [], gls: [] } } }, form: {} }, t) as Record<string, any>;
      expect(none.projectClassId['ui:widget']).to.equal('hidden');
      // a gls application's class is the group's own: not chosen among the bundled ones
      const gls = bindUiSchema(uiSchema, { data: { ...data, group: { serviceGroup: { identifier: 'gls', selection: 'single' } } }, form: { projectClassId: 3 } }, t) as Record<string, any>;
      expect(gls.projectClassId['ui:widget']).to.equal('hidden');
      expect(bind({ projectClassId: 0 }).contactId['ui:disabled']).to.equal(undefined);
    });

    it('clear: the contacts and the billing note have no value while a class is chosen, and their initial values again without one', () => {
      const initial = { projectClassId: 0, contactId: 7, billingContactId: 3, billingNote: 'PO' };
      expect(clearedFields(uiSchema, { form: { projectClassId: 21 } })).to.deep.equal(['billingContactId', 'billingNote', 'contactId']);
      const withClass = withClearedFields({ ...initial, projectClassId: 21 }, initial, uiSchema, {});
      expect(withClass).to.deep.equal({ projectClassId: 21 });
      expect(withClearedFields({ ...withClass, projectClassId: 0 }, initial, uiSchema, {})).to.deep.equal(initial);
    });

    it('a function the engine does not know is refused', () => {
      expect(() => callFunction('nothing', [])).to.throw(/unknown function "nothing"/);
    });

    it('a function called again with the same arguments answers its last result without computing it again; new arguments compute', () => {
      const earliest = sinon.spy(functions, 'earliestStartsOn');
      try {
        const closedDays = ['2026-12-29'];
        expect(callFunction('earliestStartsOn', ['2026-12-24', closedDays])).to.equal(callFunction('earliestStartsOn', ['2026-12-24', closedDays]));
        expect(earliest.callCount).to.equal(1);
        callFunction('earliestStartsOn', ['2026-12-25', closedDays]);
        expect(earliest.callCount).to.equal(2);
      } finally {
        earliest.restore();
      }
    });
  });

  describe('messages and anchors', () => {
    const exists = (key: string) => ['subscriptions.errors.users.email.duplicated', 'subscriptions.errors.users.maximumNumberUsers.emba', 'subscriptions.errors.startsOn.outOfRange'].includes(key);
    it("a server field error's message under the form's prefix, row indexes left out, meta as values; none where the key does not exist", () => {
      expect(formServerMessage({ field: 'users.3.email', code: 'duplicated' }, 'subscriptions.errors', exists)).to.deep.equal({ messageKey: 'subscriptions.errors.users.email.duplicated' });
      expect(formServerMessage({ field: 'users', code: 'maximumNumberUsers.emba', meta: { number: 150 } }, 'subscriptions.errors', exists)).to.deep.equal({ messageKey: 'subscriptions.errors.users.maximumNumberUsers.emba', params: { number: 150 } });
      expect(formServerMessage({ field: 'starts_on', code: 'outOfRange' }, 'subscriptions.errors', exists)).to.deep.equal({ messageKey: 'subscriptions.errors.startsOn.outOfRange' });
      expect(formServerMessage({ field: 'admin_ids', code: 'blank' }, 'subscriptions.errors', exists)).to.equal(undefined);
      // without its own message, the error catalogue's
      expect(serverErrorsToErrorSchema([{ field: 'admin_ids', code: 'blank' }], t as never, 'subscriptions.errors', exists)).to.deep.equal({ adminIds: { __errors: ['errors.field.blank'] } });
    });

    it('a form is unchanged while it differs only by fields without a value (RJSF fills empty lists when it mounts)', () => {
      expect(sameData({ serviceGroupId: 2, serviceIds: [], users: [], billingNote: '' }, { serviceGroupId: 2 })).to.equal(true);
      expect(sameData({ serviceGroupId: 2, serviceIds: [13] }, { serviceGroupId: 2 })).to.equal(false);
      expect(sameData({ contactId: 0 }, {})).to.equal(false);
    });

    it("the first field in error in the form's order, and its anchor (the field's own, else its id)", () => {
      const order = ['serviceIds', 'startsOn', 'adminIds', 'users'];
      expect(firstFieldInError(['users.0.email', 'adminIds', 'startsOn'], order)).to.equal('startsOn');
      expect(fieldPathOf('.users.0.email')).to.equal('users.0.email');
      expect(fieldPathOf('.users[0].email')).to.equal('users.0.email');
      const ui = { startsOn: { 'ui:options': { anchor: 'startsOn' } } };
      expect(anchorOf(ui, 'startsOn')).to.equal('startsOn');
      expect(anchorOf(ui, 'users.0.email')).to.equal('root_users_0_email');
    });
  });
});
