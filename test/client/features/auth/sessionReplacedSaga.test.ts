import { expect } from 'chai';
import { runSaga } from 'redux-saga';
import { replaceSession, sessionReplaced } from '../../../../src/client/features/auth/sessionReplacedSaga.js';
import { idTokenReceived } from '../../../../src/client/features/auth/authState.js';
import { initialSessionState, sessionFromTokenResponse, sessionStored, type Session } from '../../../../src/client/state/session.js';
import { tokens } from './support.js';

const current: Session = { ...sessionFromTokenResponse(tokens()), affiliations: [{ role: 'member', organization: { id: 1, gloplaId: 'G0000001' } }] };

/** The actions replaceSession puts for an answer, with the current session in the store. */
async function putsFor(answer: unknown): Promise<Array<{ type: string; payload?: unknown }>> {
  const dispatched: Array<{ type: string; payload?: unknown }> = [];
  await runSaga({ dispatch: (action: { type: string }) => dispatched.push(action), getState: () => ({ session: { ...initialSessionState, session: current } }) }, replaceSession, sessionReplaced(answer)).toPromise();
  return dispatched;
}

describe('features/auth session replaced by an answer (SPEC 2.6; issue 44)', () => {
  const next = tokens({ accessToken: 'access-2', refreshToken: 'refresh-2', idToken: 'id-2' });

  it("replaces the session with a token response (the password change's answer), keeping the affiliations", async () => {
    const puts = await putsFor(next);
    expect(puts[0]).to.deep.equal(sessionStored({ ...sessionFromTokenResponse(next), affiliations: current.affiliations }));
    expect(puts[1]).to.deep.equal(idTokenReceived('id-2'));
  });

  it("replaces it with the session a second factor's change answers beside its other fields", async () => {
    const puts = await putsFor({ recoveryCodes: ['ABCDE-FGHJK'], session: next });
    expect((puts[0]?.payload as Session).token).to.equal('access-2');
    expect(puts[1]).to.deep.equal(idTokenReceived('id-2'));
  });

  it('leaves the session alone for an answer that holds none', async () => {
    expect(await putsFor({ recoveryCodes: [] })).to.deep.equal([]);
  });
});
