import { expect } from 'chai';
import sinon from 'sinon';
import { runCall } from '../../../../src/client/engine/screen/calls.js';
import { createHttpClient, type RequestOptions } from '../../../../src/client/api/http.js';
import { SUBSCRIPTION_WRITE_TIMEOUT_MS } from '../../../../src/client/state/constants.js';
import { loadScreens } from '../../../../src/configuration/load.js';
import { jsonResponse, setup } from '../../api/harness.js';

/** Runs one screen call and answers the options the HTTP client was given. */
async function requestOf(definition: Parameters<typeof runCall>[1]): Promise<RequestOptions> {
  const httpClient = createHttpClient({ fetch: async () => jsonResponse(200, {}) });
  const request = sinon.spy(httpClient, 'request');
  const { run } = setup({ context: { httpClient } });
  await run(runCall, 'test', definition, {}).toPromise();
  return request.firstCall.args[0];
}

describe('screen calls: named timeouts (SPEC §7, §9)', () => {
  it('gives a call named subscriptionWrite 600000 ms and every other call the client’s default', async () => {
    expect((await requestOf({ method: 'POST', path: 'x', timeout: 'subscriptionWrite' })).timeoutMs).to.equal(SUBSCRIPTION_WRITE_TIMEOUT_MS);
    expect((await requestOf({ method: 'POST', path: 'x' })).timeoutMs).to.equal(undefined);
  });

  it('every create and update of an application in the screens, dry runs too, names the subscriptionWrite timeout', () => {
    const writes: Array<Record<string, unknown>> = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') {
        const call = value as Record<string, unknown>;
        if (/^organizations\/:orgId\/(confirmed_)?corporate_subscriptions/.test(String(call.path)) && ['POST', 'PATCH'].includes(String(call.method))) writes.push(call);
        Object.values(call).forEach(walk);
      }
    };
    walk(loadScreens());
    expect(writes).to.have.length.of.at.least(4);
    for (const write of writes) expect(write, JSON.stringify(write)).to.have.property('timeout', 'subscriptionWrite');
  });
});
