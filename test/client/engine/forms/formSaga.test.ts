import { expect } from 'chai';
import { formsReducer, formSubmitted, selectForm } from '../../../../src/client/engine/forms/formState.js';
import { submitForm } from '../../../../src/client/engine/forms/formSaga.js';
import { fillPath, pickFormFields, valueAt } from '../../../../src/client/engine/forms/pathParams.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored, type SessionRootState } from '../../../../src/client/state/session.js';
import { bodyOf, jsonResponse, setup, type Route } from '../../api/harness.js';

function signedIn(routes: Record<string, Route>) {
  const harness = setup({ routes, reducers: { forms: formsReducer } });
  harness.store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 })));
  harness.store.dispatch(organizationSelected({ organization: { id: 7, gloplaId: 'G0000007' }, me: { id: 42, firstName: 'f', lastName: 'l' } }));
  return harness;
}

describe('engine/forms: submit paths, mapped errors and success events', () => {
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

  it('PATCH to the filled path; on success the event (with the response), the flash and the navigation', async () => {
    const harness = signedIn({ 'PATCH /api/v2/organizations/7/affiliations/admins/42': () => jsonResponse(200, { affiliation: { admin: { id: 42 } } }) });
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'accountName',
          method: 'PATCH',
          path: 'organizations/:orgId/affiliations/admins/:adminId',
          data: { firstName: '次郎' },
          onSuccess: { event: 'account/nameUpdated', flash: 'account.name.updated', navigate: '/account' },
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

  it('a refused request empties the captcha fields (a solution works once) and shows a mapped captcha error (issue 7 finding 8)', async () => {
    const harness = setup({ routes: { 'POST /api/v2/registration_requests': () => jsonResponse(401, { error: 'captcha_invalid' }) }, reducers: { forms: formsReducer } });
    const data = { email: 'a@example.com', capyChallengekey: 'key', capyAnswer: 'payload' };
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'registration',
          method: 'POST',
          path: 'registration_requests',
          data,
          errors: [{ status: 401, code: 'captcha_invalid', field: 'capyAnswer', message: 'captcha.required' }],
        }),
      )
      .toPromise();
    const entry = selectForm(harness.store.getState() as any, 'registration');
    expect(entry.status).to.equal('failed');
    expect(entry.data).to.deep.equal({ email: 'a@example.com', capyChallengekey: '', capyAnswer: '' });
    expect(entry.fieldMessages).to.deep.equal([{ field: 'capyAnswer', messageKey: 'captcha.required' }]);
    expect(selectFlashMessages(harness.store.getState() as any)).to.deep.equal([]);
  });

  it('a server error the screen maps shows on its field, without the general handling', async () => {
    const harness = signedIn({ 'PUT /api/v2/admins/42/password': () => jsonResponse(400, { error: 'current_password_mismatch' }) });
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'accountPassword',
          method: 'PUT',
          path: 'admins/:adminId/password',
          data: { current: 'wrong', new: 'NewPassw0rd!2' },
          errors: [{ status: 400, code: 'current_password_mismatch', field: 'current', message: 'account.password.currentMismatch' }],
          onSuccess: { navigate: '/account' },
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

  it('an unmapped error still goes to the general handling', async () => {
    const harness = signedIn({ 'PUT /api/v2/admins/42/password': () => jsonResponse(400, { error: 'something_else' }) });
    await harness
      .run(
        submitForm,
        formSubmitted({
          formId: 'accountPassword',
          method: 'PUT',
          path: 'admins/:adminId/password',
          data: {},
          errors: [{ status: 400, code: 'current_password_mismatch', field: 'current', message: 'account.password.currentMismatch' }],
        }),
      )
      .toPromise();
    expect(selectFlashMessages(harness.store.getState() as any).map((m) => m.messageKey)).to.deep.equal(['errors.unexpected']);
  });
});
