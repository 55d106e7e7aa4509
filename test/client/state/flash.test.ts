import { expect } from 'chai';
import sinon from 'sinon';
import { applyMiddleware, combineReducers, legacy_createStore as createStore } from 'redux';
import createSagaMiddleware from 'redux-saga';
import { FLASH_CLEAR_MS, FLASH_CLOSE_ANIMATION_MS } from '../../../src/client/state/constants.js';
import { flash, flashCleared, flashClosed, flashReducer, flashSaga, flashShown, selectFlashMessages } from '../../../src/client/state/flash.js';

function flashStore() {
  const sagaMiddleware = createSagaMiddleware();
  const store = createStore(combineReducers({ flash: flashReducer }), applyMiddleware(sagaMiddleware));
  const task = sagaMiddleware.run(flashSaga);
  const messages = () => selectFlashMessages(store.getState());
  return { store, task, messages };
}

describe('state/flash', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => clock.restore());

  it('shows a flash with its kind, locale key and params', () => {
    const { store, task, messages } = flashStore();
    store.dispatch(flashShown({ id: 'f1', kind: 'success', messageKey: 'memberships.roleUpdated', params: { name: 'A' } }));
    expect(messages()).to.deep.equal([{ id: 'f1', kind: 'success', messageKey: 'memberships.roleUpdated', params: { name: 'A' } }]);
    task.cancel();
  });

  it('the same message shown again replaces the first (two calls of a page failing alike show it once); other words stay', () => {
    const { store, task, messages } = flashStore();
    store.dispatch(flashShown({ id: 'f1', kind: 'error', messageKey: 'errors.unexpected' }));
    store.dispatch(flashShown({ id: 'f2', kind: 'info', messageKey: 'contacts.gone' }));
    store.dispatch(flashShown({ id: 'f3', kind: 'error', messageKey: 'errors.unexpected' }));
    store.dispatch(flashShown({ id: 'f4', kind: 'success', messageKey: 'memberships.roleUpdated', params: { name: 'B' } }));
    store.dispatch(flashShown({ id: 'f5', kind: 'success', messageKey: 'memberships.roleUpdated', params: { name: 'C' } }));
    expect(messages().map((message) => message.id)).to.deep.equal(['f2', 'f3', 'f4', 'f5']);
    task.cancel();
  });

  it(`clears a flash at ${FLASH_CLEAR_MS} ms, not before`, async () => {
    const { store, task, messages } = flashStore();
    store.dispatch(flash.error('errors.network'));
    await clock.tickAsync(FLASH_CLEAR_MS - 1);
    expect(messages().map((m) => m.messageKey)).to.deep.equal(['errors.network']);
    await clock.tickAsync(1);
    expect(messages()).to.deep.equal([]);
    task.cancel();
  });

  it(`close marks the flash closing and removes it after the ${FLASH_CLOSE_ANIMATION_MS} ms animation`, async () => {
    const { store, task, messages } = flashStore();
    store.dispatch(flashShown({ id: 'f1', kind: 'info', messageKey: 'x' }));
    await clock.tickAsync(1000);
    store.dispatch(flashClosed('f1'));
    expect(messages()).to.deep.equal([{ id: 'f1', kind: 'info', messageKey: 'x', closing: true }]);
    await clock.tickAsync(FLASH_CLOSE_ANIMATION_MS - 1);
    expect(messages()).to.have.length(1);
    await clock.tickAsync(1);
    expect(messages()).to.deep.equal([]);
    task.cancel();
  });

  it('a message shown later keeps its own full display time', async () => {
    const { store, task, messages } = flashStore();
    store.dispatch(flashShown({ id: 'first', kind: 'info', messageKey: 'a' }));
    await clock.tickAsync(2000);
    store.dispatch(flashShown({ id: 'second', kind: 'info', messageKey: 'b' }));
    await clock.tickAsync(FLASH_CLEAR_MS - 2000);
    expect(messages().map((m) => m.id)).to.deep.equal(['second']);
    await clock.tickAsync(2000);
    expect(messages()).to.deep.equal([]);
    task.cancel();
  });

  it('flashCleared() without an id clears every message', () => {
    let state = flashReducer(undefined, flashShown({ kind: 'info', messageKey: 'a' }));
    state = flashReducer(state, flashShown({ kind: 'warning', messageKey: 'b' }));
    expect(state.messages).to.have.length(2);
    expect(flashReducer(state, flashCleared()).messages).to.deep.equal([]);
  });
});
