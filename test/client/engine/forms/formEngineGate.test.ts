/** engine/forms/formEngineGate.ts: on a cold load the form engine is asked for after the frame's first paint (issue 47). */
import { expect } from 'chai';
import { afterFrame, holdFormEngine, releaseFormEngine } from '../../../../src/client/engine/forms/formEngineGate.js';
import { installPostTask } from '../../support/postTask.js';

const settledSoon = async (promise: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  return settled;
};

describe('client/engine/forms/formEngineGate', () => {
  afterEach(() => releaseFormEngine());

  it('loads at once where nothing holds the form engine (tests, the gallery)', async () => {
    let asked = 0;
    expect(await settledSoon(afterFrame(async () => ++asked))).to.equal(true);
    expect(asked).to.equal(1);
  });

  it('held, asks for nothing until the frame has painted, then for everything that waited', async () => {
    holdFormEngine();
    const asked: string[] = [];
    const screenView = afterFrame(async () => asked.push('screen-view'));
    const formEngine = afterFrame(async () => asked.push('form-screen'));
    expect(await settledSoon(screenView)).to.equal(false);
    expect(asked, 'before the paint').to.deep.equal([]);
    releaseFormEngine();
    await Promise.all([screenView, formEngine]);
    expect(asked).to.deep.equal(['screen-view', 'form-screen']);
    expect(await settledSoon(afterFrame(async () => asked.push('later')))).to.equal(true);
  });

  it("released, each load starts in a task of its own ahead of the page's ordinary tasks (scheduler.postTask), in the order asked", async () => {
    const { posted, restore } = installPostTask();
    try {
      holdFormEngine();
      const asked: string[] = [];
      const loads = ['form-screen', 'form-subscription', 'date-field'].map((name) => afterFrame(async () => asked.push(name)));
      releaseFormEngine();
      await settledSoon(Promise.resolve());
      expect(posted.map((task) => task.priority)).to.deep.equal(['user-blocking', 'user-blocking', 'user-blocking']);
      expect(asked, 'before their tasks').to.deep.equal([]);
      posted[0]!.run();
      await settledSoon(Promise.resolve());
      expect(asked).to.deep.equal(['form-screen']);
      posted[1]!.run();
      posted[2]!.run();
      await Promise.all(loads);
      expect(asked).to.deep.equal(['form-screen', 'form-subscription', 'date-field']);
    } finally {
      restore();
    }
  });
});
