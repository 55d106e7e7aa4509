/**
 * The outcomes of SPEC §8 'Activation and reset', as the screen files declare them, run by the engine's sagas: the
 * mail requests (activation-start, password-reset-start), the token checks (the screens' data) and the token forms
 * (activation-activate, password-reset).
 */
import { expect } from 'chai';
import { formChanged, formsReducer, formSubmitted, selectForm } from '../../../../src/client/engine/forms/formState.js';
import { submitForm } from '../../../../src/client/engine/forms/formSaga.js';
import { loadScreen } from '../../../../src/client/engine/screen/screenModule.js';
import { screenDataReducer, screenEntered, selectScreenData } from '../../../../src/client/engine/screen/screenDataState.js';
import { loadScreenData } from '../../../../src/client/engine/screen/screenData.js';
import type { ScreenContext } from '../../../../src/client/engine/screen/values.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse, networkFailure, setup, type Route } from '../../api/harness.js';

const CAPTCHA = { capyChallengekey: 'challenge-1', capyAnswer: 'cGF5bG9hZA==' };

function harness(routes: Record<string, Route>) {
  return setup({ routes, reducers: { forms: formsReducer, screenData: screenDataReducer } });
}
type Harness = ReturnType<typeof harness>;

const flashes = (h: Harness) => selectFlashMessages(h.store.getState() as never).map((message) => message.messageKey);
const reported = (h: Harness) => h.calls('POST', '/api/v2/client_errors').length;
const headerOf = (h: Harness, method: string, path: string, name: string) => (h.calls(method, path)[0]!.args[1].headers as Record<string, string>)[name];

/** Submits the screen's form as FormScreen does: its call, outcomes and the screen context. */
async function submit(h: Harness, screenId: string, data: Record<string, unknown>, context: Partial<ScreenContext> = {}) {
  const form = (await loadScreen(screenId)).form!;
  h.store.dispatch(formChanged({ formId: screenId, data }));
  await h.run(submitForm, formSubmitted({ formId: screenId, call: form.submit, context: { language: 'en', ...context }, data, outcomes: form.outcomes })).toPromise();
  return selectForm(h.store.getState() as never, screenId);
}

/** Enters the screen as ScreenView does and loads its data. */
async function enter(h: Harness, screenId: string, context: Partial<ScreenContext>) {
  await loadScreen(screenId);
  h.store.dispatch(screenEntered({ screenId, context }));
  await h.run(loadScreenData, screenId).toPromise();
  return selectScreenData(h.store.getState() as never, screenId);
}

const captchaCleared = (entry: { data: Record<string, unknown> }) => entry.data.capyAnswer === '' && entry.data.capyChallengekey === '' && entry.data.email === 'pending@example.com';

describe('engine/screen: the activation and reset outcomes of SPEC §8 from screens/', () => {
  describe('activation-mail request (activation-start)', () => {
    const MAIL = 'POST /api/v2/admin/account_activation_email';
    const request = (h: Harness) => submit(h, 'activationStart', { email: 'pending@example.com', ...CAPTCHA });

    it('success: POST with the captcha fields in the page language, no session header, then /token/sent with flow activation', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(200, {}) });
      await request(h);
      const [call] = h.calls('POST', '/api/v2/admin/account_activation_email');
      expect(call!.args[0]).to.match(/\?lang=en$/);
      expect(bodyOf(call!.args[1])).to.deep.equal({ email: 'pending@example.com', capy_challengekey: 'challenge-1', capy_answer: 'cGF5bG9hZA==' });
      expect(headerOf(h, 'POST', '/api/v2/admin/account_activation_email', 'x-v2-admin-auth-token')).to.equal(undefined);
      expect(h.navigate.calledOnceWith('/token/sent', { replace: undefined, state: { flow: 'activation' } })).to.equal(true);
    });

    it('already_activated: /activation/already-completed, no flash, no report', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(409, { error: 'already_activated' }) });
      await request(h);
      expect(h.navigate.calledOnceWith('/activation/already-completed')).to.equal(true);
      expect(flashes(h)).to.deep.equal([]);
      expect(reported(h)).to.equal(0);
    });

    it('401: "Please complete the puzzle." on the captcha field, and the captcha starts over', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(401, { error: 'captcha_invalid' }) });
      const entry = await request(h);
      expect(entry.status).to.equal('failed');
      expect(entry.fieldMessages).to.deep.equal([{ field: 'capyAnswer', messageKey: 'captcha.required' }]);
      expect(captchaCleared(entry)).to.equal(true);
      expect(flashes(h)).to.deep.equal([]);
      expect(h.navigate.called).to.equal(false);
    });

    it('422: the field errors on the form; the captcha starts over', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(422, { errors: [{ field: 'email', code: 'invalid', meta: {} }] }) });
      const entry = await request(h);
      expect(entry.fieldErrors).to.deep.equal([{ field: 'email', code: 'invalid', meta: {} }]);
      expect(captchaCleared(entry)).to.equal(true);
      expect(flashes(h)).to.deep.equal([]);
    });

    it('other (500): reported, "unexpected", and the captcha starts over', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(500, { error: 'internal_error' }), 'POST /api/v2/client_errors': () => new Response(null, { status: 204 }) });
      const entry = await request(h);
      expect(flashes(h)).to.deep.equal(['errors.unexpected']);
      expect(reported(h)).to.equal(1);
      expect(captchaCleared(entry)).to.equal(true);
    });

    it('429: the rate-limit message of the error catalogue', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(429, { error: 'too_many_requests' }, { 'retry-after': '60' }) });
      await request(h);
      expect(flashes(h)).to.deep.equal(['errors.tooManyRequests']);
    });
  });

  describe('reset-mail request (password-reset-start)', () => {
    const MAIL = 'POST /api/v2/admin/reset_password_token_call';
    const request = (h: Harness) => submit(h, 'passwordResetStart', { email: 'pending@example.com', ...CAPTCHA });

    it('success: /token/sent with flow passwordReset', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(200, {}) });
      await request(h);
      expect(h.navigate.calledOnceWith('/token/sent', { replace: undefined, state: { flow: 'passwordReset' } })).to.equal(true);
    });

    it('409 is no already-completed page for a reset: unexpected, reported', async () => {
      const h = harness({ [MAIL]: () => jsonResponse(409, { error: 'already_activated' }), 'POST /api/v2/client_errors': () => new Response(null, { status: 204 }) });
      await request(h);
      expect(flashes(h)).to.deep.equal(['errors.unexpected']);
      expect(h.navigate.called).to.equal(false);
    });
  });

  describe('activation page (activation-activate): token check and submit', () => {
    const CHECK = 'GET /api/v2/admin/validate_confirm_email_token';
    const params = { adminId: '5', token: 'tok_EN-1' };
    const admin = { id: 5, email: 'pending@example.com', lastName: '田中', firstName: '', kanaLastName: '', kanaFirstName: '' };

    it('the check sends x-v2-admin-activate-token: Bearer {token} and keeps the admin', async () => {
      const h = harness({ [CHECK]: () => jsonResponse(200, { admin }) });
      const entry = await enter(h, 'activationActivate', { params });
      expect(headerOf(h, 'GET', '/api/v2/admin/validate_confirm_email_token', 'x-v2-admin-activate-token')).to.equal('Bearer tok_EN-1');
      expect(entry.status).to.equal('loaded');
      expect(entry.values.check).to.deep.equal({ admin });
    });

    it('401 on the check: /token/expired (replacing the page) with the errorCode', async () => {
      const h = harness({ [CHECK]: () => jsonResponse(401, { error: 'token_expired' }) });
      await enter(h, 'activationActivate', { params });
      expect(h.navigate.calledOnceWith('/token/expired', { replace: true, state: { errorCode: 'token_expired' } })).to.equal(true);
      expect(flashes(h)).to.deep.equal([]);
    });

    it('no status on the check: the network error, and the page shows the failure', async () => {
      const h = harness({ [CHECK]: networkFailure });
      const entry = await enter(h, 'activationActivate', { params });
      expect(entry.status).to.equal('failed');
      expect(flashes(h)).to.deep.equal(['errors.network']);
      expect(h.navigate.called).to.equal(false);
    });

    it('submit: PUT admins/{adminId} with the token header and snake_case names, then /activation/success', async () => {
      const h = harness({ 'PUT /api/v2/admins/5': () => jsonResponse(200, { admin }) });
      await submit(h, 'activationActivate', { lastName: '田中', firstName: '花子', kanaLastName: 'たなか', kanaFirstName: 'はなこ', password: 'x' }, { params });
      const [call] = h.calls('PUT', '/api/v2/admins/5');
      expect((call!.args[1].headers as Record<string, string>)['x-v2-admin-activate-token']).to.equal('Bearer tok_EN-1');
      expect(bodyOf(call!.args[1])).to.include({ last_name: '田中', kana_first_name: 'はなこ' });
      expect(h.navigate.calledOnceWith('/activation/success', { replace: true, state: undefined })).to.equal(true);
    });

    it('401 on submit: /token/expired with the errorCode', async () => {
      const h = harness({ 'PUT /api/v2/admins/5': () => jsonResponse(401, { error: 'token_used' }) });
      await submit(h, 'activationActivate', { password: 'x' }, { params });
      expect(h.navigate.calledOnceWith('/token/expired', { replace: true, state: { errorCode: 'token_used' } })).to.equal(true);
    });
  });

  describe('reset page (password-reset): token check and submit', () => {
    const query = { admin_id: '5', token: 'reset-1' };

    it('the check sends x-v2-admin-reset-password-token; 401 → /token/expired with flow and from passwordReset', async () => {
      const h = harness({ 'GET /api/v2/admin/validate_reset_password_token': () => jsonResponse(401, { error: 'invalid_token' }) });
      await enter(h, 'passwordReset', { query });
      expect(headerOf(h, 'GET', '/api/v2/admin/validate_reset_password_token', 'x-v2-admin-reset-password-token')).to.equal('Bearer reset-1');
      expect(h.navigate.calledOnceWith('/token/expired', { replace: true, state: { flow: 'passwordReset', from: 'passwordReset', errorCode: 'invalid_token' } })).to.equal(true);
    });

    it('a link without a token is refused by the server like a wrong one: no header sent', async () => {
      const h = harness({ 'GET /api/v2/admin/validate_reset_password_token': () => jsonResponse(401, { error: 'invalid_token' }) });
      await enter(h, 'passwordReset', { query: {} });
      expect(headerOf(h, 'GET', '/api/v2/admin/validate_reset_password_token', 'x-v2-admin-reset-password-token')).to.equal(undefined);
      expect(h.navigate.firstCall.args[0]).to.equal('/token/expired');
    });

    it('submit: POST admins/{admin_id}/password {new} with the token, then /password/reset/success', async () => {
      const h = harness({ 'POST /api/v2/admins/5/password': () => jsonResponse(200, {}) });
      await submit(h, 'passwordReset', { new: 'Fresh-Passw0rd-2026' }, { query });
      expect(bodyOf(h.calls('POST', '/api/v2/admins/5/password')[0]!.args[1])).to.deep.equal({ new: 'Fresh-Passw0rd-2026' });
      expect(headerOf(h, 'POST', '/api/v2/admins/5/password', 'x-v2-admin-reset-password-token')).to.equal('Bearer reset-1');
      expect(h.navigate.calledOnceWith('/password/reset/success', { replace: true, state: undefined })).to.equal(true);
    });
  });
});
