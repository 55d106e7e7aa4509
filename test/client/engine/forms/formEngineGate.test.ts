/** engine/forms/formEngineGate.ts: on a cold load the form engine is asked for after the frame's first paint (issue 47). */
import { expect } from 'chai';
import { afterFrame, holdFormEngine, releaseFormEngine } from '../../../../src/client/engine/forms/formEngineGate.js';

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
});
