import { expect } from 'chai';
import { legacy_createStore as createStore, applyMiddleware } from 'redux';
import createSagaMiddleware from 'redux-saga';
import { take } from 'redux-saga/effects';
import { setSagaRunner, startLazySaga } from '../../../src/client/state/lazySagas.js';

describe('state/lazySagas: sagas that arrive with a lazily loaded chunk', () => {
  function storeWithRunner() {
    const middleware = createSagaMiddleware();
    createStore((state: unknown = null) => state, applyMiddleware(middleware));
    let runs = 0;
    setSagaRunner((saga) => {
      runs += 1;
      return middleware.run(saga);
    });
    return { runs: () => runs };
  }
  function* waiting() {
    yield take('never');
  }

  it('starts a saga once on the registered store, however often the page asks; a new store starts it again', () => {
    const first = storeWithRunner();
    startLazySaga(waiting);
    startLazySaga(waiting);
    expect(first.runs()).to.equal(1);
    const second = storeWithRunner();
    startLazySaga(waiting);
    expect(second.runs()).to.equal(1);
  });
});
