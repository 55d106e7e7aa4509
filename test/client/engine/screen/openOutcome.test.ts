/**
 * An outcome's `open` (issue 45, the /sso page's 'Test connection'): the answer's URL opened in a new window with no
 * opener, by the saga right after the call; a URL that is not http(s) opens nothing.
 */
import { expect } from 'chai';
import { runSaga } from 'redux-saga';
import { applyOutcome } from '../../../../src/client/engine/screen/calls.js';

describe('screen engine: an outcome opening the answer’s URL in a new window', () => {
  const opened: unknown[][] = [];
  const original = globalThis.open;

  beforeEach(() => {
    opened.length = 0;
    globalThis.open = ((...args: unknown[]) => {
      opened.push(args);
      return null;
    }) as typeof globalThis.open;
  });

  afterEach(() => {
    globalThis.open = original;
  });

  const apply = (outcome: Parameters<typeof applyOutcome>[0], body: unknown) => runSaga({ dispatch: () => undefined, getState: () => ({}) }, applyOutcome, outcome, { body }).toPromise();

  it('opens $body.testUrl in a new window without an opener', async () => {
    await apply({ on: 'success', open: '$body.testUrl' }, { testUrl: 'http://localhost:3000/oidc/connection_test/abc' });
    expect(opened).to.deep.equal([['http://localhost:3000/oidc/connection_test/abc', '_blank', 'noopener']]);
  });

  it('opens nothing for a URL that is not http(s)', async () => {
    await apply({ on: 'success', open: '$body.testUrl' }, { testUrl: 'javascript:alert(1)' });
    await apply({ on: 'success', open: '$body.missing' }, { testUrl: 'https://example.com/' });
    expect(opened).to.deep.equal([]);
  });
});
