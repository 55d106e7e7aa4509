import { expect } from 'chai';
import sinon from 'sinon';
import { put } from 'redux-saga/effects';
import { callApi, type CallApiOptions, type CallApiRequest } from '../../../src/client/api/callApi.js';
import { fieldErrorsToFormErrors } from '../../../src/client/api/fieldErrors.js';
import { ApiError, AUTH_TOKEN_HEADER } from '../../../src/client/api/http.js';
import { ERROR_REPORT_MAX_LENGTH, REAUTH_REDIRECT_DELAY_MS } from '../../../src/client/state/constants.js';
import { selectFlashMessages } from '../../../src/client/state/flash.js';
import { isPending, operationError, operationStatus } from '../../../src/client/state/operations.js';
import { sessionFromTokenResponse, sessionStored } from '../../../src/client/state/session.js';
import { bodyOf, hangs, jsonResponse, networkFailure, setup, type Route } from './harness.js';
import { englishI18n } from '../support/i18n.js';

const tokenResponse = (accessToken: string) => ({
  accessToken,
  refreshToken: 'refresh',
  createdAt: 1_700_000_000,
  expiresIn: 3600,
  refreshTokenExpiresIn: 86400,
});

/** Runs callApi for `GET /api/v2/target` answered by `route`, returning the outcome and the harness. */
async function callTarget(route: Route, options: CallApiOptions = {}, request: Partial<CallApiRequest> = {}) {
  const harness = setup({ routes: { 'GET /api/v2/target': route } });
  let data: unknown;
  let thrown: unknown;
  await harness
    .run(function* () {
      try {
        data = yield* callApi('target/load', { path: 'target', ...request }, options);
      } catch (error) {
        thrown = error;
      }
    })
    .toPromise();
  const flashes = selectFlashMessages(harness.store.getState()).map(({ kind, messageKey, params }) => ({ kind, messageKey, ...(params === undefined ? {} : { params }) }));
  const reports = harness.calls('POST', '/api/v2/client_errors');
  return { ...harness, data, thrown, flashes, reports };
}

describe('api/errorCatalogue general handling (SPEC §8), run by callApi for every call', () => {
  it('401 access_token_expired → error flash errors.sessionExpired (no report, no redirect)', async () => {
    const result = await callTarget(() => jsonResponse(401, { error: 'access_token_expired' }));
    expect(result.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.sessionExpired' }]);
    expect(result.reports).to.have.length(0);
    expect(result.navigate.called).to.equal(false);
    expect(result.thrown).to.be.instanceOf(ApiError);
  });

  it('401 invalid_access_token → error flash errors.sessionExpired', async () => {
    const result = await callTarget(() => jsonResponse(401, { error: 'invalid_access_token' }));
    expect(result.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.sessionExpired' }]);
  });

  describe('reauthentication_expired', () => {
    let clock: sinon.SinonFakeTimers;
    beforeEach(() => {
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => clock.restore());

    it('→ flash errors.reauthenticationExpired, then after REAUTH_REDIRECT_DELAY_MS navigate to /signin?prompt=login&returnTo=<current path>', async () => {
      const result = await callTarget(() => jsonResponse(401, { error: 'reauthentication_expired' }));
      expect(result.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.reauthenticationExpired' }]);
      expect(result.thrown, 'the caller gets the error without waiting for the redirect').to.be.instanceOf(ApiError);
      await clock.tickAsync(REAUTH_REDIRECT_DELAY_MS - 1);
      expect(result.navigate.called, 'no redirect before the delay').to.equal(false);
      await clock.tickAsync(1);
      expect(result.navigate.calledOnceWithExactly('/signin?prompt=login&returnTo=%2Faccount%3Ftab%3D1', undefined)).to.equal(true);
    });
  });

  it('409 admin_already_deleted → error flash errors.adminAlreadyDeleted', async () => {
    const result = await callTarget(() => jsonResponse(409, { error: 'admin_already_deleted' }));
    expect(result.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.adminAlreadyDeleted' }]);
    expect(result.reports).to.have.length(0);
  });

  it('412 precondition_failed → error flash errors.changedMeanwhile with who and when; without them, errors.changedMeanwhileUnknown (issue 28)', async () => {
    const named = await callTarget(() => jsonResponse(412, { error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' }));
    expect(named.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.changedMeanwhile', params: { error: 'precondition_failed', changedBy: { name: '美咲 高橋', email: 'manager2@example.com' }, changedAt: '2026-11-27T01:02:00.000Z' } }]);
    const unnamed = await callTarget(() => jsonResponse(412, { error: 'precondition_failed', changed_by: null, changed_at: null }));
    expect(unnamed.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.changedMeanwhileUnknown' }]);
    expect(unnamed.reports).to.have.length(0);
  });

  it('any 403 → navigate to /signin, no flash', async () => {
    const result = await callTarget(() => jsonResponse(403, { error: 'forbidden' }));
    expect(result.navigate.calledOnceWithExactly('/signin', undefined)).to.equal(true);
    expect(result.flashes).to.deep.equal([]);
    expect(result.reports).to.have.length(0);
  });

  it("403 mfa_required (the organisation's two-step rule) → warning flash errors.mfaRequired and Sign-in security (issue 29)", async () => {
    const result = await callTarget(() => jsonResponse(403, { error: 'mfa_required' }));
    expect(result.flashes).to.deep.equal([{ kind: 'warning', messageKey: 'errors.mfaRequired' }]);
    expect(result.navigate.calledOnceWithExactly('/account/security', undefined)).to.equal(true);
    expect(result.reports).to.have.length(0);
  });

  it('any 503 → warning flash errors.maintenance', async () => {
    const result = await callTarget(() => new Response('Service Unavailable', { status: 503 }));
    expect(result.flashes).to.deep.equal([{ kind: 'warning', messageKey: 'errors.maintenance' }]);
    expect(result.reports).to.have.length(0);
  });

  it('timeout → error flash errors.timeout', async () => {
    const result = await callTarget(hangs, {}, { timeoutMs: 20 });
    expect((result.thrown as ApiError).kind).to.equal('timeout');
    expect(result.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.timeout' }]);
    expect(result.reports).to.have.length(0);
  });

  it('no status and not a timeout (network failure) → error flash errors.network', async () => {
    const result = await callTarget(networkFailure);
    expect((result.thrown as ApiError).kind).to.equal('network');
    expect(result.flashes).to.deep.equal([{ kind: 'error', messageKey: 'errors.network' }]);
    expect(result.reports).to.have.length(0);
  });

  it('anything else → POST /api/v2/client_errors {message, context} with every string cut to 1000 characters, then flash errors.unexpected', async () => {
    const longText = 'x'.repeat(5000);
    const events: string[] = [];
    const harness = setup({
      routes: {
        'GET /api/v2/target': () => jsonResponse(500, { error: 'internal_error', detail: longText, nested: [{ trace: longText }] }),
        'POST /api/v2/client_errors': () => {
          events.push('report');
          return new Response(null, { status: 204 });
        },
      },
    });
    harness.store.subscribe(() => {
      if (selectFlashMessages(harness.store.getState()).length > 0 && !events.includes('flash')) events.push('flash');
    });
    await harness
      .run(function* () {
        try {
          yield* callApi('target/load', { path: 'target' });
        } catch {
          // the caller sees the error; asserted elsewhere
        }
      })
      .toPromise();
    const reports = harness.calls('POST', '/api/v2/client_errors');
    expect(reports).to.have.length(1);
    const report = bodyOf(reports[0].args[1]) as { message: string; context: Record<string, any> };
    expect(report.message).to.equal('GET target failed: HTTP 500 (internal_error)');
    expect(report.context).to.include({ kind: 'http', status: 500, code: 'internal_error', method: 'GET', path: 'target' });
    expect(report.context.body.detail).to.equal('x'.repeat(ERROR_REPORT_MAX_LENGTH));
    expect(report.context.body.nested[0].trace).to.equal('x'.repeat(ERROR_REPORT_MAX_LENGTH));
    const strings: string[] = [];
    JSON.stringify(report, (_key, value) => (typeof value === 'string' && strings.push(value), value));
    expect(Math.max(...strings.map((s) => s.length))).to.be.at.most(ERROR_REPORT_MAX_LENGTH);
    expect(selectFlashMessages(harness.store.getState()).map(({ kind, messageKey }) => ({ kind, messageKey }))).to.deep.equal([
      { kind: 'error', messageKey: 'errors.unexpected' },
    ]);
    expect(events, 'reported first, then the message').to.deep.equal(['report', 'flash']);
  });

  it('anything else: a failing report is swallowed and the unexpected message still shows', async () => {
    const harness = setup({
      routes: { 'GET /api/v2/target': () => jsonResponse(418, {}), 'POST /api/v2/client_errors': networkFailure },
    });
    let thrown: unknown;
    await harness
      .run(function* () {
        try {
          yield* callApi('target/load', { path: 'target' });
        } catch (error) {
          thrown = error;
        }
      })
      .toPromise();
    expect(harness.calls('POST', '/api/v2/client_errors')).to.have.length(1);
    expect((thrown as ApiError).status, 'the caller sees the original error').to.equal(418);
    expect(selectFlashMessages(harness.store.getState()).map((m) => m.messageKey)).to.deep.equal(['errors.unexpected']);
  });

  it('a caller whose handle claims the error gets it with no general handling (no flash, redirect or report)', async () => {
    const handle = sinon.stub().returns(true);
    const result = await callTarget(() => jsonResponse(403, { error: 'forbidden' }), { handle });
    expect(handle.calledOnce).to.equal(true);
    expect((handle.firstCall.args[0] as ApiError).status).to.equal(403);
    expect(result.thrown).to.equal(handle.firstCall.args[0]);
    expect(result.flashes).to.deep.equal([]);
    expect(result.navigate.called).to.equal(false);
    expect(result.reports).to.have.length(0);
  });

  it('a caller whose handle declines the error gets the general handling too', async () => {
    const result = await callTarget(() => jsonResponse(503, {}), { handle: () => false });
    expect(result.flashes).to.deep.equal([{ kind: 'warning', messageKey: 'errors.maintenance' }]);
    expect(result.thrown).to.be.instanceOf(ApiError);
  });
});

describe('api/callApi', () => {
  it('tracks the operation pending → fulfilled and returns the camelCased data', async () => {
    const harness = setup({ routes: { 'GET /api/v2/service_groups': () => jsonResponse(200, { service_groups: [{ id: 1 }] }) } });
    const seen: Array<string | undefined> = [];
    harness.store.subscribe(() => seen.push(operationStatus('serviceGroups/load')(harness.store.getState())));
    let data: unknown;
    await harness
      .run(function* () {
        data = yield* callApi('serviceGroups/load', { path: 'service_groups' });
      })
      .toPromise();
    expect(data).to.deep.equal({ serviceGroups: [{ id: 1 }] });
    expect(seen.filter((status, i) => status !== seen[i - 1])).to.deep.equal(['pending', 'fulfilled']);
    expect(isPending('serviceGroups/load')(harness.store.getState())).to.equal(false);
  });

  it('is pending while the call is in flight', async () => {
    const harness = setup({ routes: { 'GET /api/v2/slow': hangs } });
    const task = harness.run(function* () {
      yield* callApi('slow/load', { path: 'slow' });
    });
    expect(isPending('slow/load')(harness.store.getState())).to.equal(true);
    task.cancel();
    await task.toPromise();
  });

  it('tracks the operation pending → rejected and keeps the error', async () => {
    const result = await callTarget(() =>
      jsonResponse(422, { error: 'validation_failed', errors: [{ field: 'email', code: 'invalid' }] }),
      { handle: () => true },
    );
    const statuses = result.actions.filter((a) => a.type.startsWith('operations/')).map((a) => a.type);
    expect(statuses).to.deep.equal(['operations/pending', 'operations/rejected']);
    expect(operationError('target/load')(result.store.getState())).to.deep.include({
      kind: 'http',
      status: 422,
      code: 'validation_failed',
      fieldErrors: [{ field: 'email', code: 'invalid' }],
    });
  });

  it('sends the session access token in x-v2-admin-auth-token', async () => {
    const harness = setup({ routes: { 'GET /api/v2/admins/me/affiliations': () => jsonResponse(200, { affiliations: [] }) } });
    await harness
      .run(function* () {
        yield put(sessionStored(sessionFromTokenResponse(tokenResponse('session-token'))));
        yield* callApi('affiliations/load', { path: 'admins/me/affiliations' });
      })
      .toPromise();
    const headers = harness.fetch.firstCall.args[1].headers as Record<string, string>;
    expect(headers[AUTH_TOKEN_HEADER]).to.equal('Bearer session-token');
  });

  it('extension point: with context.refreshSession, a 401 access_token_expired refreshes once and retries with the new token', async () => {
    const tokens: string[] = [];
    const refreshSession = sinon.spy(function* () {
      yield put(sessionStored(sessionFromTokenResponse(tokenResponse('new-token'))));
      return true;
    });
    const harness = setup({
      context: { refreshSession },
      routes: {
        'GET /api/v2/target': (_url, init) => {
          const token = (init.headers as Record<string, string>)[AUTH_TOKEN_HEADER];
          tokens.push(token);
          return token === 'Bearer new-token' ? jsonResponse(200, { ok: true }) : jsonResponse(401, { error: 'access_token_expired' });
        },
      },
    });
    let data: unknown;
    await harness
      .run(function* () {
        yield put(sessionStored(sessionFromTokenResponse(tokenResponse('old-token'))));
        data = yield* callApi('target/load', { path: 'target' });
      })
      .toPromise();
    expect(refreshSession.calledOnce).to.equal(true);
    expect(tokens).to.deep.equal(['Bearer old-token', 'Bearer new-token']);
    expect(data).to.deep.equal({ ok: true });
    expect(selectFlashMessages(harness.store.getState())).to.deep.equal([]);
  });
});

describe('api/errorCatalogue fieldErrorsToFormErrors', () => {
  it('maps a server field error to the form field with its locale key and meta as params', () => {
    expect(fieldErrorsToFormErrors([{ field: 'phone_number', code: 'tooLong', meta: { length: 15 } }])).to.deep.equal({
      phoneNumber: [{ messageKey: 'errors.field.tooLong', params: { length: 15 } }],
    });
  });

  it('nests dot paths and collects several errors of one field', () => {
    expect(
      fieldErrorsToFormErrors([
        { field: 'users.0.email', code: 'taken' },
        { field: 'users.0.email', code: 'blank' },
        { field: 'users.1.kana_first_name', code: 'blank' },
      ]),
    ).to.deep.equal({
      users: {
        0: { email: [{ messageKey: 'errors.field.taken' }, { messageKey: 'errors.field.blank' }] },
        1: { kanaFirstName: [{ messageKey: 'errors.field.blank' }] },
      },
    });
  });

  it("keeps a deeper path's place when its parent field already has a message of its own (users, then users.3.email)", () => {
    expect(
      fieldErrorsToFormErrors([
        { field: 'users', code: 'blank' },
        { field: 'users.3.email', code: 'duplicated' },
        { field: 'users', code: 'invalid' },
      ]),
    ).to.deep.equal({
      users: { _errors: [{ messageKey: 'errors.field.blank' }, { messageKey: 'errors.field.invalid' }], 3: { email: [{ messageKey: 'errors.field.duplicated' }] } },
    });
  });

  it('maps an unknown code to errors.unknown_error (SPEC §8: anything else → unknown_error)', () => {
    expect(fieldErrorsToFormErrors([{ field: 'email', code: 'somethingNew' }])).to.deep.equal({
      email: [{ messageKey: 'errors.unknown_error' }],
    });
  });

  it('shows an item with an errorCode by that code’s message, falling back to error_with_code (SPEC §8)', async () => {
    const i18n = await englishI18n();
    const messages = fieldErrorsToFormErrors([
      { field: 'adminIds', code: '', errorCode: 'E001' },
      { field: 'users', code: 'invalid', errorCode: 'E999' },
    ]) as Record<string, Array<{ messageKey: string | string[]; params?: Record<string, unknown> }>>;
    const shown = (field: string) => messages[field]!.map(({ messageKey, params }) => i18n.t(messageKey, params));
    expect(shown('adminIds')).to.deep.equal(['The specified Admin does not exist.']);
    expect(shown('users')).to.deep.equal(['An unexpected error occurred. Error code: E999']);
  });

});
