import { expect } from 'chai';
import { formChanged, formsReducer, selectForm } from '../../../../src/client/engine/forms/formState.js';
import { requestMail, checkToken, submitTokenForm } from '../../../../src/client/features/accountTokens/sagas.js';
import {
  accountTokensReducer,
  mailRequested,
  selectMailRequest,
  selectTokenCheck,
  selectTokenForm,
  tokenCheckRequested,
  tokenFormSubmitted,
  type TokenFlow,
} from '../../../../src/client/features/accountTokens/state.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, jsonResponse, networkFailure, settle, setup, type Route } from '../../api/harness.js';

const ACTIVATION_SUBMIT = { method: 'POST' as const, path: 'admin/account_activation_email' };
const RESET_SUBMIT = { method: 'POST' as const, path: 'admin/reset_password_token_call' };
const CAPTCHA = { capyChallengekey: 'challenge-1', capyAnswer: 'cGF5bG9hZA==' };

function harness(routes: Record<string, Route>) {
  const result = setup({ routes, reducers: { forms: formsReducer, accountTokens: accountTokensReducer } });
  return result;
}

function flashes(h: ReturnType<typeof harness>): string[] {
  return selectFlashMessages(h.store.getState() as never).map((message) => message.messageKey);
}

function reported(h: ReturnType<typeof harness>): number {
  return h.calls('POST', '/api/v2/client_errors').length;
}

async function mailRequest(h: ReturnType<typeof harness>, flow: TokenFlow) {
  const formId = flow === 'activation' ? 'activationStart' : 'passwordResetStart';
  const data = { email: 'pending@example.com', ...CAPTCHA };
  h.store.dispatch(formChanged({ formId, data }));
  const action = mailRequested({ flow, formId, submit: flow === 'activation' ? ACTIVATION_SUBMIT : RESET_SUBMIT, data, language: 'en' });
  h.store.dispatch(action);
  await h.run(requestMail, action).toPromise();
  return formId;
}

const captchaCleared = (h: ReturnType<typeof harness>, formId: string) => {
  const { data } = selectForm(h.store.getState() as never, formId);
  return data.capyAnswer === '' && data.capyChallengekey === '' && data.email === 'pending@example.com';
};

describe('features/accountTokens: the outcomes of SPEC §8 "Activation and reset"', () => {
  describe('activation-mail request', () => {
    it('success: POST with the captcha fields and lang, then /token/sent with flow activation', async () => {
      const h = harness({ 'POST /api/v2/admin/account_activation_email': () => jsonResponse(200, {}) });
      await mailRequest(h, 'activation');
      const [call] = h.calls('POST', '/api/v2/admin/account_activation_email');
      expect(call!.args[0]).to.match(/\?lang=en$/);
      expect(bodyOf(call!.args[1])).to.deep.equal({ email: 'pending@example.com', capy_challengekey: 'challenge-1', capy_answer: 'cGF5bG9hZA==' });
      expect((call!.args[1].headers as Record<string, string>)['x-v2-admin-auth-token']).to.equal(undefined);
      expect(h.navigate.calledOnceWith('/token/sent', { state: { flow: 'activation' } })).to.equal(true);
      expect(selectMailRequest('activation')(h.store.getState() as never).status).to.equal('succeeded');
    });

    it('already_activated: /activation/already-completed, no flash, no report', async () => {
      const h = harness({ 'POST /api/v2/admin/account_activation_email': () => jsonResponse(409, { error: 'already_activated' }) });
      await mailRequest(h, 'activation');
      expect(h.navigate.calledOnceWith('/activation/already-completed')).to.equal(true);
      expect(flashes(h)).to.deep.equal([]);
      expect(reported(h)).to.equal(0);
    });

    it('401: "Please complete the puzzle." on the captcha, the captcha cleared, the button enabled again', async () => {
      const h = harness({ 'POST /api/v2/admin/account_activation_email': () => jsonResponse(401, { error: 'captcha_invalid' }) });
      const formId = await mailRequest(h, 'activation');
      const request = selectMailRequest('activation')(h.store.getState() as never);
      expect(request.status).to.equal('failed');
      expect(request.fieldMessages).to.deep.equal([{ field: 'capyAnswer', messageKey: 'captcha.required' }]);
      expect(captchaCleared(h, formId)).to.equal(true);
      expect(h.navigate.called).to.equal(false);
      expect(flashes(h)).to.deep.equal([]);
    });

    it('422: the field errors on the form', async () => {
      const h = harness({
        'POST /api/v2/admin/account_activation_email': () => jsonResponse(422, { errors: [{ field: 'email', code: 'invalid', meta: {} }] }),
      });
      await mailRequest(h, 'activation');
      expect(selectMailRequest('activation')(h.store.getState() as never).fieldErrors).to.deep.equal([{ field: 'email', code: 'invalid', meta: {} }]);
      expect(flashes(h)).to.deep.equal([]);
    });

    it('other (500): reported, "unexpected", the captcha cleared', async () => {
      const h = harness({
        'POST /api/v2/admin/account_activation_email': () => jsonResponse(500, { error: 'internal_error' }),
        'POST /api/v2/client_errors': () => new Response(null, { status: 204 }),
      });
      const formId = await mailRequest(h, 'activation');
      await settle();
      expect(reported(h)).to.equal(1);
      expect(flashes(h)).to.deep.equal(['errors.unexpected']);
      expect(captchaCleared(h, formId)).to.equal(true);
      expect(selectMailRequest('activation')(h.store.getState() as never).status).to.equal('failed');
    });

    it('429: the rate-limit message of the error catalogue', async () => {
      const h = harness({ 'POST /api/v2/admin/account_activation_email': () => jsonResponse(429, { error: 'too_many_requests' }) });
      await mailRequest(h, 'activation');
      expect(flashes(h)).to.deep.equal(['errors.tooManyRequests']);
      expect(reported(h)).to.equal(0);
    });
  });

  describe('reset-mail request', () => {
    it('success: /token/sent with flow passwordReset', async () => {
      const h = harness({ 'POST /api/v2/admin/reset_password_token_call': () => jsonResponse(200, {}) });
      await mailRequest(h, 'passwordReset');
      expect(h.navigate.calledOnceWith('/token/sent', { state: { flow: 'passwordReset' } })).to.equal(true);
    });

    it('401: the captcha error', async () => {
      const h = harness({ 'POST /api/v2/admin/reset_password_token_call': () => jsonResponse(401, { error: 'captcha_invalid' }) });
      const formId = await mailRequest(h, 'passwordReset');
      expect(selectMailRequest('passwordReset')(h.store.getState() as never).fieldMessages).to.deep.equal([{ field: 'capyAnswer', messageKey: 'captcha.required' }]);
      expect(captchaCleared(h, formId)).to.equal(true);
    });

    it('other (409 too): unexpected, reported; no already-completed page for a reset', async () => {
      const h = harness({
        'POST /api/v2/admin/reset_password_token_call': () => jsonResponse(409, { error: 'already_activated' }),
        'POST /api/v2/client_errors': () => new Response(null, { status: 204 }),
      });
      await mailRequest(h, 'passwordReset');
      await settle();
      expect(h.navigate.called).to.equal(false);
      expect(flashes(h)).to.deep.equal(['errors.unexpected']);
      expect(reported(h)).to.equal(1);
    });
  });

  describe('activation page: token check and submit', () => {
    const check = async (h: ReturnType<typeof harness>, flow: TokenFlow = 'activation') => {
      const action = tokenCheckRequested({ flow, token: 'tok-123' });
      h.store.dispatch(action);
      await h.run(checkToken, action).toPromise();
    };

    it('the token check sends x-v2-admin-activate-token: Bearer {token} and keeps the admin', async () => {
      const h = harness({ 'GET /api/v2/admin/validate_confirm_email_token': () => jsonResponse(200, { admin: { id: 5, email: 'p@example.com' } }) });
      await check(h);
      const [call] = h.calls('GET', '/api/v2/admin/validate_confirm_email_token');
      expect((call!.args[1].headers as Record<string, string>)['x-v2-admin-activate-token']).to.equal('Bearer tok-123');
      expect(selectTokenCheck('activation')(h.store.getState() as never)).to.deep.equal({ status: 'valid', token: 'tok-123', admin: { id: 5, email: 'p@example.com' } });
    });

    it('401 on the check: /token/expired with the errorCode', async () => {
      const h = harness({ 'GET /api/v2/admin/validate_confirm_email_token': () => jsonResponse(401, { error: 'token_expired' }) });
      await check(h);
      expect(h.navigate.calledOnceWith('/token/expired', { replace: true, state: { errorCode: 'token_expired' } })).to.equal(true);
      expect(flashes(h)).to.deep.equal([]);
    });

    it('no status on the check: the network error', async () => {
      const h = harness({ 'GET /api/v2/admin/validate_confirm_email_token': networkFailure });
      await check(h);
      expect(flashes(h)).to.deep.equal(['errors.network']);
      expect(h.navigate.called).to.equal(false);
      expect(selectTokenCheck('activation')(h.store.getState() as never).status).to.equal('failed');
    });

    it('other on the check: reported, unexpected', async () => {
      const h = harness({
        'GET /api/v2/admin/validate_confirm_email_token': () => jsonResponse(500, { error: 'internal_error' }),
        'POST /api/v2/client_errors': () => new Response(null, { status: 204 }),
      });
      await check(h);
      await settle();
      expect(flashes(h)).to.deep.equal(['errors.unexpected']);
      expect(reported(h)).to.equal(1);
    });

    const submit = async (h: ReturnType<typeof harness>, flow: TokenFlow = 'activation') => {
      const action = tokenFormSubmitted({
        flow,
        formId: flow === 'activation' ? 'activationActivate' : 'passwordReset',
        submit: flow === 'activation' ? { method: 'PUT', path: 'admins/:adminId' } : { method: 'POST', path: 'admins/:adminId/password' },
        adminId: '5',
        token: 'tok-123',
        data: flow === 'activation' ? { lastName: '田中', firstName: '花子', kanaLastName: 'たなか', kanaFirstName: 'はなこ', password: 'Passw0rd!x' } : { new: 'Passw0rd!x' },
      });
      h.store.dispatch(action);
      await h.run(submitTokenForm, action).toPromise();
    };

    it('submit: PUT admins/{adminId} with the token header and snake_case names, then /activation/success', async () => {
      const h = harness({ 'PUT /api/v2/admins/5': () => jsonResponse(200, { admin: { id: 5 } }) });
      await submit(h);
      const [call] = h.calls('PUT', '/api/v2/admins/5');
      expect((call!.args[1].headers as Record<string, string>)['x-v2-admin-activate-token']).to.equal('Bearer tok-123');
      expect(bodyOf(call!.args[1])).to.deep.equal({ last_name: '田中', first_name: '花子', kana_last_name: 'たなか', kana_first_name: 'はなこ', password: 'Passw0rd!x' });
      expect(h.navigate.calledOnceWith('/activation/success', { replace: true })).to.equal(true);
    });

    it('401 on submit: /token/expired with the errorCode', async () => {
      const h = harness({ 'PUT /api/v2/admins/5': () => jsonResponse(401, { error: 'already_activated' }) });
      await submit(h);
      expect(h.navigate.calledOnceWith('/token/expired', { replace: true, state: { errorCode: 'already_activated' } })).to.equal(true);
    });

    it('422 on submit: the field errors; no status: network error; other: reported, unexpected', async () => {
      const invalid = harness({ 'PUT /api/v2/admins/5': () => jsonResponse(422, { errors: [{ field: 'kana_last_name', code: 'invalid', meta: {} }] }) });
      await submit(invalid);
      expect(selectTokenForm('activation')(invalid.store.getState() as never)).to.include({ status: 'failed' });
      expect(selectTokenForm('activation')(invalid.store.getState() as never).fieldErrors).to.deep.equal([{ field: 'kanaLastName', code: 'invalid', meta: {} }]);

      const offline = harness({ 'PUT /api/v2/admins/5': networkFailure });
      await submit(offline);
      expect(flashes(offline)).to.deep.equal(['errors.network']);

      const broken = harness({ 'PUT /api/v2/admins/5': () => jsonResponse(500, {}), 'POST /api/v2/client_errors': () => new Response(null, { status: 204 }) });
      await submit(broken);
      await settle();
      expect(flashes(broken)).to.deep.equal(['errors.unexpected']);
      expect(reported(broken)).to.equal(1);
    });
  });

  describe('reset page: token check and submit', () => {
    it('the check sends x-v2-admin-reset-password-token; 401 → /token/expired with flow and from passwordReset', async () => {
      const h = harness({ 'GET /api/v2/admin/validate_reset_password_token': () => jsonResponse(401, { error: 'token_used' }) });
      const action = tokenCheckRequested({ flow: 'passwordReset', token: 'tok-9' });
      await h.run(checkToken, action).toPromise();
      const [call] = h.calls('GET', '/api/v2/admin/validate_reset_password_token');
      expect((call!.args[1].headers as Record<string, string>)['x-v2-admin-reset-password-token']).to.equal('Bearer tok-9');
      expect(
        h.navigate.calledOnceWith('/token/expired', { replace: true, state: { flow: 'passwordReset', from: 'passwordReset', errorCode: 'token_used' } }),
      ).to.equal(true);
    });

    it('submit: POST admins/{adminId}/password {new}, then /password/reset/success; 401 → /token/expired; other → unexpected', async () => {
      const ok = harness({ 'POST /api/v2/admins/5/password': () => jsonResponse(200, {}) });
      const action = tokenFormSubmitted({ flow: 'passwordReset', formId: 'passwordReset', submit: { method: 'POST', path: 'admins/:adminId/password' }, adminId: '5', token: 't', data: { new: 'Passw0rd!x' } });
      await ok.run(submitTokenForm, action).toPromise();
      expect(bodyOf(ok.calls('POST', '/api/v2/admins/5/password')[0]!.args[1])).to.deep.equal({ new: 'Passw0rd!x' });
      expect(ok.navigate.calledOnceWith('/password/reset/success', { replace: true })).to.equal(true);

      const expired = harness({ 'POST /api/v2/admins/5/password': () => jsonResponse(401, { error: 'token_expired' }) });
      await expired.run(submitTokenForm, action).toPromise();
      expect(expired.navigate.calledOnceWith('/token/expired', { replace: true, state: { flow: 'passwordReset', from: 'passwordReset', errorCode: 'token_expired' } })).to.equal(true);

      const broken = harness({ 'POST /api/v2/admins/5/password': () => jsonResponse(500, {}), 'POST /api/v2/client_errors': () => new Response(null, { status: 204 }) });
      await broken.run(submitTokenForm, action).toPromise();
      await settle();
      expect(flashes(broken)).to.deep.equal(['errors.unexpected']);
      expect(broken.navigate.called).to.equal(false);
    });
  });
});
