/** app/firstPaint.ts: the form engine is released once the frame, with its notices, has painted (issue 47). */
import { expect } from 'chai';
import { runSaga, stdChannel, type Saga } from 'redux-saga';
import sinon from 'sinon';
import { frameShown, NOTICES_WAIT_MS, releaseFormEngineAfterFirstPaint } from '../../../src/client/app/firstPaint.js';
import { afterFrame, holdFormEngine, releaseFormEngine } from '../../../src/client/engine/forms/formEngineGate.js';
import { NOTICES_OPERATION, noticesLoaded } from '../../../src/client/features/notices/index.js';
import { operationRejected } from '../../../src/client/state/operations.js';
import { framesAsTimers } from '../support/frames.js';

/** Runs the saga on a channel of the actions the test dispatches; `opened()` tells whether the form engine came. */
function start() {
  holdFormEngine();
  let opened = false;
  void afterFrame(async () => (opened = true));
  const channel = stdChannel();
  const task = runSaga({ channel, dispatch: () => undefined, getState: () => ({}) }, releaseFormEngineAfterFirstPaint as Saga);
  return { dispatch: (action: { type: string }) => channel.put(action), opened: () => opened, task };
}

/** Lets the paint's frame and task run. */
const aPaintLater = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('client/app/firstPaint', () => {
  framesAsTimers();
  afterEach(() => releaseFormEngine());

  it('waits for the frame and its notices, then for the paint', async () => {
    const saga = start();
    saga.dispatch(frameShown());
    await aPaintLater();
    expect(saga.opened(), 'the notices not yet in').to.equal(false);
    saga.dispatch(noticesLoaded([]));
    await saga.task.toPromise();
    // the released load's promise steps (formEngineGate.ts: its task, then the load)
    await new Promise((resolve) => setImmediate(resolve));
    expect(saga.opened()).to.equal(true);
  });

  it('does not wait for the frame to be shown only: a failed notices call settles them too', async () => {
    const saga = start();
    saga.dispatch(operationRejected({ name: NOTICES_OPERATION, error: { kind: 'network', message: 'offline' } }));
    await aPaintLater();
    expect(saga.opened(), 'the frame not yet shown').to.equal(false);
    saga.dispatch(frameShown());
    await saga.task.toPromise();
    // the released load's promise steps (formEngineGate.ts: its task, then the load)
    await new Promise((resolve) => setImmediate(resolve));
    expect(saga.opened()).to.equal(true);
  });

  it(`waits for a slow notices call ${NOTICES_WAIT_MS} ms at most`, async () => {
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const saga = start();
      saga.dispatch(frameShown());
      await clock.tickAsync(NOTICES_WAIT_MS - 1);
      expect(saga.opened()).to.equal(false);
      await clock.tickAsync(100);
      await saga.task.toPromise();
      expect(saga.opened()).to.equal(true);
    } finally {
      clock.restore();
    }
  });
});
