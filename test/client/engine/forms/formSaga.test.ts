import { expect } from 'chai';
import { formChanged, formsReducer, formSubmitted, selectForm } from '../../../../src/client/engine/forms/formState.js';
import { screenById } from '../../../../src/client/engine/screen/navigation.js';
import { loadScreen } from '../../../../src/client/engine/screen/screenModule.js';
import { submitForm } from '../../../../src/client/engine/forms/formSaga.js';
import { pickFormFields } from '../../../../src/client/engine/forms/pathParams.js';
import { fillPath } from '../../../../src/client/engine/screen/callRequest.js';
import { valueAt } from '../../../../src/client/engine/screen/values.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored, type SessionRootState } from '../../../../src/client/state/session.js';
import { bodyOf, jsonResponse, setup, type Route } from '../../api/harness.js';

// the full definitions (the first load has each screen's route entry only)
await Promise.all(['registration'].map((id) => loadScreen(id)));

function signedIn(routes: Record<string, Route>) {
  const harness = setup({ routes, reducers: { forms: formsReducer } });
  harness.store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 })));
  harness.store.dispatch(organizationSelected({ organization: { id: 7, gloplaId: 'G0000007' }, me: { id: 42, firstName: 'f', lastName: 'l' } }));
  return harness;
}

describe('engine/forms: submit paths and the outcome table', () => {
  it('fills :orgId and :adminId from the session, route parameters first', () => {
    const state = { session: { organization: { id: 7, gloplaId: 'G' }, me: { id: 42 } } } as unknown as SessionRootState;
    expect(fillPath('organizations/:orgId/affiliations/admins/:adminId', {}, state)).to.equal('organizations/7/affiliations/admins/42');
    expect(fillPath('admins/:adminId/password', { adminId: '5' }, state)).to.equal('admins/5/password');
    expect(() => fillPath('x/:unknown', {}, state)).to.throw(/:unknown/);
  });

  it('initial data: a dotted path into the state, limited to the form fields', () => {
    const state = { session: { me: { id: 1, firstName: '太郎', lastName: '山田', email: 'a@b', middleName: null } } };
    expect(pickFormFields(valueAt(state, 'session.me'), ['firstName', 'lastName', 'middleName'])).to.deep.equal({ firstName: '太郎', lastName: '山田' });
    expect(valueAt(state, 'session.nothing.here')).to.equal(undefined);
  });

  it('PATCH to the filled path; the success row: the event (with the response), the flash and the navigation by screen id', async () => {
    const harness = signedIn({ 'PATCH /api/v2/organizations/7/affiliations/admins/42': () => jsonResponse(200, { affiliation: { admin: { id: 42 } } }) });
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'accountName',
          call: { method: 'PATCH', path: 'organizations/:orgId/affiliations/admins/:adminId' },
          context: {},
          data: { firstName: '次郎' },
          outcomes: [{ on: 'success', event: 'account/nameUpdated', flash: 'account.name.updated', navigate: { screen: 'account' } }],
        }),
      )
      .toPromise();
    const call = harness.calls('PATCH', '/api/v2/organizations/7/affiliations/admins/42')[0];
    expect(bodyOf(call.args[1])).to.deep.equal({ first_name: '次郎' });
    const event = harness.actions.find((action) => action.type === 'account/nameUpdated');
    expect(event?.payload).to.deep.equal({ affiliation: { admin: { id: 42 } } });
    expect(selectFlashMessages(harness.store.getState() as any).map((m) => m.messageKey)).to.deep.equal(['account.name.updated']);
    expect(harness.navigate.calledOnceWith('/account')).to.equal(true);
  });

  it('an error row with a field shows its message there, without the general handling', async () => {
    const harness = signedIn({ 'PUT /api/v2/admins/42/password': () => jsonResponse(400, { error: 'current_password_mismatch' }) });
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'accountPassword',
          call: { method: 'PUT', path: 'admins/:adminId/password' },
          context: {},
          data: { current: 'wrong', new: 'NewPassw0rd!2' },
          outcomes: [
            { on: 400, code: 'current_password_mismatch', field: 'current', message: 'account.password.currentMismatch' },
            { on: 'success', navigate: { screen: 'account' } },
          ],
        }),
      )
      .toPromise();
    const entry = selectForm(harness.store.getState() as any, 'accountPassword');
    expect(entry.status).to.equal('failed');
    expect(entry.fieldMessages).to.deep.equal([{ field: 'current', messageKey: 'account.password.currentMismatch' }]);
    expect(selectFlashMessages(harness.store.getState() as any)).to.deep.equal([]);
    expect(harness.calls('POST', '/api/v2/client_errors')).to.have.length(0);
    expect(harness.navigate.called).to.equal(false);
  });

  it('an error no row matches still goes to the general handling', async () => {
    const harness = signedIn({ 'PUT /api/v2/admins/42/password': () => jsonResponse(400, { error: 'something_else' }) });
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'accountPassword',
          call: { method: 'PUT', path: 'admins/:adminId/password' },
          context: {},
          data: {},
          outcomes: [{ on: 400, code: 'current_password_mismatch', field: 'current', message: 'account.password.currentMismatch' }],
        }),
      )
      .toPromise();
    expect(selectFlashMessages(harness.store.getState() as any).map((m) => m.messageKey)).to.deep.equal(['errors.unexpected']);
  });

  it("a refused registration empties the captcha fields (a solution works once) and shows the captcha's message: the screen's rows", async () => {
    const harness = setup({ routes: { 'POST /api/v2/registration_requests': () => jsonResponse(401, { error: 'captcha_invalid' }) }, reducers: { forms: formsReducer } });
    const data = { email: 'a@example.com', capyChallengekey: 'key', capyAnswer: 'payload' };
    const form = screenById('registration').form!;
    harness.store.dispatch(formChanged({ formId: 'registration', data }));
    await harness.run(submitForm, formSubmitted({ formId: 'registration', call: form.submit, context: {}, data, outcomes: form.outcomes })).toPromise();
    const entry = selectForm(harness.store.getState() as any, 'registration');
    expect(entry.status).to.equal('failed');
    expect(entry.data).to.deep.equal({ email: 'a@example.com', capyChallengekey: '', capyAnswer: '' });
    expect(entry.fieldMessages).to.deep.equal([{ field: 'capyAnswer', messageKey: 'captcha.required' }]);
    expect(selectFlashMessages(harness.store.getState() as any)).to.deep.equal([]);
  });
});
