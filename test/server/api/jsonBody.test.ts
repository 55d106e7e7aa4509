import { expect } from 'chai';
import { jsonShapeProblem } from '../../../src/server/api/jsonBody.js';
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


describe('JSON bodies within the route schema\'s bounds (issue 25 finding 3)', () => {
  const ctx = useTestApp();
  const post = (url: string, payload: string) => ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
  /** A text the parser would refuse (400): only a refusal before parsing answers otherwise. */
  const unparsable = '!!! not JSON';

  it('refuses a list longer than the schema allows with 422 on that list before parsing the body', async () => {
    // registration_requests has no list: one item (a scalar sent as a list) at most
    const response = await post('/api/v2/registration_requests', `{"captcha":{"x":1},"email":[${'"a",'.repeat(5)}${unparsable}`);
    expect(response.statusCode, response.body).to.equal(422);
    expect(response.json()).to.deep.equal({ errors: [{ field: 'email', code: 'invalid', meta: {} }] });
  });

  it('refuses an anonymous body of about 1 MiB of distinct keys with 413 before parsing it', async () => {
    const keys = Array.from({ length: 90_000 }, (_, index) => `"k${index}":0`).join(',');
    expect(keys.length).to.be.within(0.9 * 1024 * 1024, 1024 * 1024 - 100); // about the 1 MiB body limit
    const response = await post('/api/v2/registration_requests', `{${keys},${unparsable}`);
    expect(response.statusCode, response.body).to.equal(413);
    expect(response.json()).to.deep.equal({ error: 'bad_request' });
  });

  it('counts the structure outside strings only: brackets, commas, colons and escaped quotes inside strings do not count', () => {
    const bounds = { maxItems: 2, maxKeys: 2 };
    expect(jsonShapeProblem(JSON.stringify({ a: '[1,2,3],{"x":1,"y":2,"z":3}\\"', b: ['\\",', ',,,'] }), bounds)).to.equal(undefined);
    expect(jsonShapeProblem('{"a":[1,2,3]}', bounds)).to.deep.equal({ kind: 'items', at: ['a'] });
    expect(jsonShapeProblem('{"a":[{"b\\"c":[]},{"b\\"c":[1,[],"x"]}]}', bounds)).to.deep.equal({ kind: 'items', at: ['a', '1', 'b"c'] });
    expect(jsonShapeProblem('{"a":1,"b":{},"c":[]}', bounds)).to.deep.equal({ kind: 'keys' });
    expect(jsonShapeProblem('[[],[],[ ]]', bounds)).to.deep.equal({ kind: 'items', at: [] });
    expect(jsonShapeProblem('[[],[ ]]', bounds)).to.equal(undefined);
  });
});
