import { expect } from 'chai';
import sinon from 'sinon';
import { ApiError, AUTH_TOKEN_HEADER, createHttpClient } from '../../../src/client/api/http.js';
import { DEFAULT_TIMEOUT_MS } from '../../../src/client/state/constants.js';
import { bodyOf, fakeFetch, hangs, jsonResponse, networkFailure } from './harness.js';

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('api/http request', () => {
  describe('case conversion', () => {
    it('sends JSON body keys in snake_case, deeply, leaving values untouched', async () => {
      const fetch = fakeFetch({ 'POST /api/v2/organizations/1/contacts': () => jsonResponse(201, {}) });
      const { request } = createHttpClient({ fetch });
      await request({
        method: 'POST',
        path: 'organizations/1/contacts',
        body: { kanaFirstName: 'タロウ', phoneNumber: 'someValue', billing: { ccEmail: 'a@b.c', lines: [{ postalCode: '1' }] } },
      });
      const init = fetch.firstCall.args[1];
      expect(bodyOf(init)).to.deep.equal({
        kana_first_name: 'タロウ',
        phone_number: 'someValue',
        billing: { cc_email: 'a@b.c', lines: [{ postal_code: '1' }] },
      });
      expect(headersOf(init)['content-type']).to.equal('application/json; charset=utf-8');
    });

    it('receives response keys camelCased, deeply (notices content_ja → contentJa)', async () => {
      const fetch = fakeFetch({
        'GET /api/v2/organizations/1/corporate_subscriptions': () =>
          jsonResponse(200, { corporate_subscriptions: [{ request_code: 'R-1', starts_on: ['2025-01-01'], billing_contact: { cc_email: 'x' } }] }),
      });
      const data = await createHttpClient({ fetch }).request({ path: 'organizations/1/corporate_subscriptions' });
      expect(data).to.deep.equal({
        corporateSubscriptions: [{ requestCode: 'R-1', startsOn: ['2025-01-01'], billingContact: { ccEmail: 'x' } }],
      });
    });

    it('snake_cases query keys on the /api/v2 root, and uses /api/v1 for version v1', async () => {
      const fetch = fakeFetch({
        'GET /api/v2/organizations/1/corporate_subscriptions': () => jsonResponse(200, {}),
        'GET /api/v1/notices': () => jsonResponse(200, { notices: [] }),
      });
      const { request } = createHttpClient({ fetch });
      await request({
        path: '/organizations/1/corporate_subscriptions',
        query: { serviceGroupId: 3, orderBy: '-starts_on', perPage: 999, dryrun: true, skipped: undefined },
      });
      await request({ path: 'notices', version: 'v1' });
      expect(fetch.firstCall.args[0]).to.equal(
        '/api/v2/organizations/1/corporate_subscriptions?service_group_id=3&order_by=-starts_on&per_page=999&dryrun=true',
      );
      expect(fetch.secondCall.args[0]).to.equal('/api/v1/notices');
    });

    it('sends a FormData body as is, without key conversion or a JSON content type', async () => {
      const fetch = fakeFetch({ 'POST /api/v2/organizations/1/users/preview': () => jsonResponse(200, { users: [] }) });
      const form = new FormData();
      form.append('csv', new Blob(['a,b']), 'users.csv');
      form.append('someField', 'x');
      await createHttpClient({ fetch }).request({ method: 'POST', path: 'organizations/1/users/preview', body: form, multipart: true });
      const init = fetch.firstCall.args[1];
      expect(init.body).to.equal(form);
      expect([...(init.body as FormData).keys()]).to.deep.equal(['csv', 'someField']);
      expect(headersOf(init)).not.to.have.property('content-type');
    });

    it('turns a plain object into FormData for multipart, keeping its keys verbatim', async () => {
      const fetch = fakeFetch({ 'POST /api/v2/upload': () => jsonResponse(200, {}) });
      await createHttpClient({ fetch }).request({ method: 'POST', path: 'upload', body: { csvFile: new Blob(['x']) }, multipart: true });
      const body = fetch.firstCall.args[1].body;
      expect(body).to.be.instanceOf(FormData);
      expect([...(body as FormData).keys()]).to.deep.equal(['csvFile']);
    });

    it('returns non-JSON responses (the users CSV) as text and an empty 204 as undefined', async () => {
      const fetch = fakeFetch({
        'GET /api/v2/organizations/1/users/csv': () => new Response('id,email\n1,a@b.c', { headers: { 'content-type': 'text/csv' } }),
        'DELETE /api/v2/organizations/1/contacts/2': () => new Response(null, { status: 204 }),
      });
      const { request } = createHttpClient({ fetch });
      expect(await request({ path: 'organizations/1/users/csv' })).to.equal('id,email\n1,a@b.c');
      expect(await request({ method: 'DELETE', path: 'organizations/1/contacts/2' })).to.equal(undefined);
    });
  });

  describe('auth header', () => {
    it('adds x-v2-admin-auth-token: Bearer {token} when a token is given', async () => {
      const fetch = fakeFetch({ 'GET /api/v2/admins/me/affiliations': () => jsonResponse(200, {}) });
      await createHttpClient({ fetch }).request({ path: 'admins/me/affiliations', token: 'tok-1' });
      expect(headersOf(fetch.firstCall.args[1])[AUTH_TOKEN_HEADER]).to.equal('Bearer tok-1');
    });

    it('sends no auth header without a token', async () => {
      const fetch = fakeFetch({ 'GET /api/v1/notices': () => jsonResponse(200, {}) });
      const { request } = createHttpClient({ fetch });
      await request({ path: 'notices', version: 'v1' });
      await request({ path: 'notices', version: 'v1', token: null });
      for (const call of fetch.getCalls()) expect(headersOf(call.args[1])).not.to.have.property(AUTH_TOKEN_HEADER);
    });
  });

  describe('timeout', () => {
    let clock: sinon.SinonFakeTimers;
    beforeEach(() => {
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => clock.restore());

    it('fails with kind timeout after the default 300000 ms, and not before', async () => {
      const fetch = fakeFetch({ 'GET /api/v2/slow': hangs });
      let settled = false;
      const outcome = rejection(createHttpClient({ fetch }).request({ path: 'slow' })).finally(() => (settled = true));
      await clock.tickAsync(DEFAULT_TIMEOUT_MS - 1);
      expect(settled, 'still waiting at 299999 ms').to.equal(false);
      await clock.tickAsync(1);
      const error = await outcome;
      expect(error.kind).to.equal('timeout');
      expect(error.status).to.equal(undefined);
    });

    it('honours a per-call timeoutMs and does not retry a timed-out GET', async () => {
      const fetch = fakeFetch({ 'GET /api/v2/slow': hangs });
      const outcome = rejection(createHttpClient({ fetch, retryDelay: () => 0 }).request({ path: 'slow', timeoutMs: 50 }));
      await clock.tickAsync(50);
      expect((await outcome).kind).to.equal('timeout');
      expect(fetch.callCount).to.equal(1);
    });
  });

  describe('retries', () => {
    it('retries a GET after a network failure and returns the later success', async () => {
      let attempts = 0;
      const fetch = fakeFetch({
        'GET /api/v2/service_groups': () => (++attempts < 3 ? networkFailure('', {}) : jsonResponse(200, { service_groups: [] })),
      });
      const data = await createHttpClient({ fetch, retryDelay: () => 0 }).request({ path: 'service_groups' });
      expect(fetch.callCount).to.equal(3);
      expect(data).to.deep.equal({ serviceGroups: [] });
    });

    it('gives up after two retries with kind network (no status)', async () => {
      const fetch = fakeFetch({ 'GET /api/v2/service_groups': networkFailure });
      const error = await rejection(createHttpClient({ fetch, retryDelay: () => 0 }).request({ path: 'service_groups' }));
      expect(fetch.callCount).to.equal(3);
      expect(error.kind).to.equal('network');
      expect(error.status).to.equal(undefined);
    });

    it('does not retry a POST after a network failure', async () => {
      const fetch = fakeFetch({ 'POST /api/v2/organizations/1/affiliations': networkFailure });
      const error = await rejection(
        createHttpClient({ fetch, retryDelay: () => 0 }).request({ method: 'POST', path: 'organizations/1/affiliations', body: {} }),
      );
      expect(fetch.callCount).to.equal(1);
      expect(error.kind).to.equal('network');
    });

    it('does not retry on an HTTP error status, even for a GET', async () => {
      const fetch = fakeFetch({ 'GET /api/v2/service_groups': () => jsonResponse(500, { error: 'internal_error' }) });
      await rejection(createHttpClient({ fetch, retryDelay: () => 0 }).request({ path: 'service_groups' }));
      expect(fetch.callCount).to.equal(1);
    });
  });

  describe('HTTP errors', () => {
    it('throws ApiError kind http with status, code (body.error) and camelCased fieldErrors (body.errors)', async () => {
      const fetch = fakeFetch({
        'POST /api/v2/organizations/1/contacts': () =>
          jsonResponse(422, {
            error: 'validation_failed',
            errors: [
              { field: 'phone_number', code: 'tooLong', meta: { length: 15 } },
              { field: 'users.0.kana_first_name', code: 'blank' },
            ],
          }),
      });
      const error = await rejection(
        createHttpClient({ fetch }).request({ method: 'POST', path: 'organizations/1/contacts', body: {} }),
      );
      expect(error.kind).to.equal('http');
      expect(error.status).to.equal(422);
      expect(error.code).to.equal('validation_failed');
      expect(error.fieldErrors).to.deep.equal([
        { field: 'phoneNumber', code: 'tooLong', meta: { length: 15 } },
        { field: 'users.0.kanaFirstName', code: 'blank' },
      ]);
      expect(error.method).to.equal('POST');
      expect(error.path).to.equal('organizations/1/contacts');
    });

    it('reads the errorCode of a 422 item (SPEC §8 application errors), with or without a code; drops items with neither', async () => {
      const fetch = fakeFetch({
        'POST /api/v2/x': () => jsonResponse(422, { error: 'validation_failed', errors: [{ field: 'admin_ids', error_code: 'E001' }, { field: 'users', code: 'blank', error_code: 'E002' }, { field: 'x' }] }),
      });
      const error = await rejection(createHttpClient({ fetch }).request({ method: 'POST', path: 'x', body: {} }));
      expect(error.fieldErrors).to.deep.equal([
        { field: 'adminIds', code: '', errorCode: 'E001' },
        { field: 'users', code: 'blank', errorCode: 'E002' },
      ]);
    });

    it('keeps the camelCased body of an error response', async () => {
      const fetch = fakeFetch({ 'GET /api/v2/x': () => jsonResponse(401, { error: 'access_token_expired', error_detail: 'd' }) });
      const error = await rejection(createHttpClient({ fetch }).request({ path: 'x' }));
      expect(error.status).to.equal(401);
      expect(error.code).to.equal('access_token_expired');
      expect(error.body).to.deep.equal({ error: 'access_token_expired', errorDetail: 'd' });
      expect(error.fieldErrors).to.equal(undefined);
    });
  });
});
