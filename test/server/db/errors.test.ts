import { expect } from 'chai';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../../../src/server/db/errors.js';

function withCode(message: string, code: string) {
  return Object.assign(new Error(message), { code });
}

describe('server/db/errors', () => {
  it('recognises the errors of an unreachable database', () => {
    expect(isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).to.equal(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).to.equal(true);
    expect(isDatabaseUnavailable(withCode('terminating connection due to administrator command', '57P01'))).to.equal(true);
    expect(isDatabaseUnavailable(withCode('connection failure', '08006'))).to.equal(true);
    expect(isDatabaseUnavailable(new Error('PGlite is closed'))).to.equal(true);
    expect(isDatabaseUnavailable(new DatabaseUnavailableError())).to.equal(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('x', 'ECONNREFUSED')], 'all failed'))).to.equal(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('reset', 'ECONNRESET') }))).to.equal(true);
  });

  it('does not mistake query errors for an outage', () => {
    expect(isDatabaseUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).to.equal(false);
    expect(isDatabaseUnavailable(withCode('relation "x" does not exist', '42P01'))).to.equal(false);
    expect(isDatabaseUnavailable(new Error('boom'))).to.equal(false);
    // a statement the server refuses (issue 15 finding 1: 70,000 parameters answered 503 maintenance)
    expect(isDatabaseUnavailable(withCode('bind message has 4464 parameter formats but 0 parameters', '08P01'))).to.equal(false);
    expect(isDatabaseUnavailable(undefined)).to.equal(false);
  });
});
