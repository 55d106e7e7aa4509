import { expect } from 'chai';
import { useTestApp } from '../support/testApp.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON bodies (issue 7 finding 2)', () => {
  const ctx = useTestApp();
  const post = (url: string, payload: string, contentType = 'application/json') =>
    ctx.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

  it('refuses 5,000 nested brackets with 400 bad_request on every route, before anything recursive runs', async () => {
    for (const url of ['/api/v2/registration_requests', '/api/v2/client_errors', '/api/v2/admin/reset_password_token_call', '/api/v1/notices']) {
      const response = await post(url, `{"message":${nested(5000)}}`);
      expect(response.statusCode, url).to.equal(400);
      expect(response.json(), url).to.deep.equal({ error: 'bad_request' });
    }
  });

  it('counts nesting of objects and arrays alike and ignores brackets inside strings', async () => {
    const deepObject = '{"a":'.repeat(40) + '1' + '}'.repeat(40);
    expect((await post('/api/v2/client_errors', deepObject)).json()).to.deep.equal({ error: 'bad_request' });
    const bracketsInString = JSON.stringify({ message: `${nested(100)} \\" [[[`, context: { a: { b: [[1]] } } });
    expect((await post('/api/v2/client_errors', bracketsInString)).statusCode).to.equal(204);
  });

  it('still refuses malformed JSON and __proto__ keys with 400', async () => {
    expect((await post('/api/v2/client_errors', '{"message":')).json()).to.deep.equal({ error: 'bad_request' });
    const poisoned = await post('/api/v2/client_errors', '{"message":"m","__proto__":{"x":1}}');
    expect(poisoned.statusCode).to.equal(400);
  });

  it('refuses strings the database cannot store (NUL, lone UTF-16 surrogates) with 400, in values and keys', async () => {
    for (const payload of ['{"message":"a\\u0000b"}', '{"message":"a\\ud800b"}', '{"message":"\\udc00"}', '{"message":"m","context":{"x\\ud83d":1}}']) {
      const response = await post('/api/v2/client_errors', payload);
      expect(response.statusCode, payload).to.equal(400);
      expect(response.json()).to.deep.equal({ error: 'bad_request' });
    }
    expect((await post('/api/v2/client_errors', '{"message":"\\ud83d\\ude00 ok"}')).statusCode).to.equal(204);
    const longArray = await post('/api/v2/registration_requests', `{"email":[${'0,'.repeat(400_000)}0]}`);
    expect(longArray.statusCode).to.be.within(400, 499);
  });
});

