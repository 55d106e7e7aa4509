import { expect } from 'chai';
import {
  isPending,
  operationError,
  operationFulfilled,
  operationPending,
  operationRejected,
  operationReset,
  operationsReducer,
  operationStatus,
} from '../../../src/client/state/operations.js';

const root = (operations: ReturnType<typeof operationsReducer>) => ({ operations });

describe('state/operations', () => {
  it('goes pending → fulfilled per operation name', () => {
    let state = operationsReducer(undefined, operationPending({ name: 'contacts/load' }));
    expect(isPending('contacts/load')(root(state))).to.equal(true);
    expect(isPending('other')(root(state))).to.equal(false);
    state = operationsReducer(state, operationFulfilled({ name: 'contacts/load' }));
    expect(operationStatus('contacts/load')(root(state))).to.equal('fulfilled');
    expect(operationError('contacts/load')(root(state))).to.equal(undefined);
  });

  it('keeps the error of a rejection until the next attempt or a reset', () => {
    const error = { kind: 'http' as const, message: 'HTTP 422', status: 422, code: 'validation_failed' };
    let state = operationsReducer(undefined, operationPending({ name: 'invite' }));
    state = operationsReducer(state, operationRejected({ name: 'invite', error }));
    expect(operationError('invite')(root(state))).to.deep.equal(error);
    expect(operationsReducer(state, operationPending({ name: 'invite' })).invite).to.deep.equal({ status: 'pending' });
    expect(operationsReducer(state, operationReset({ name: 'invite' }))).to.deep.equal({});
  });
});
