import { expect } from 'chai';
import { decideAccess, type AccessContext } from '../../../src/client/engine/guard.js';
import { initialSessionState, isHeldAtSetup, type Session } from '../../../src/client/state/session.js';

const location = { pathname: '/account', search: '?tab=1' };
const visitor: AccessContext = { hasSession: false, gloplaId: null, isManager: false, location };
const member: AccessContext = { hasSession: true, gloplaId: 'G0000001', isManager: false, location };
const manager: AccessContext = { ...member, isManager: true };

describe('guard decisions per access class', () => {
  it('unguarded: renders for everyone', () => {
    for (const context of [visitor, member, manager]) expect(decideAccess('unguarded', context)).to.deep.equal({ kind: 'render' });
  });

  it('public: renders for a visitor without a session', () => {
    expect(decideAccess('public', visitor)).to.deep.equal({ kind: 'render' });
  });

  it('public: sends a signed-in admin to top, keeping the original location as from', () => {
    expect(decideAccess('public', member)).to.deep.equal({ kind: 'redirect', to: '/', replace: true, state: { from: location } });
  });

  it('member and admin: sends a visitor to sign-in, replacing the entry and returning to the page after', () => {
    expect(decideAccess('member', visitor)).to.deep.equal({
      kind: 'redirect',
      to: `/signin?returnTo=${encodeURIComponent('/account?tab=1')}`,
      replace: true,
    });
  });

  it('member and admin: sends a session without a chosen organisation (no gloplaId) to sign-in', () => {
    const decision = decideAccess('member', { ...member, gloplaId: null });
    expect(decision).to.include({ kind: 'redirect', replace: true });
    expect((decision as { to: string }).to).to.match(/^\/signin\?returnTo=/);
  });

  it('member and admin: renders for a member and for a manager', () => {
    expect(decideAccess('member', member)).to.deep.equal({ kind: 'render' });
    expect(decideAccess('member', manager)).to.deep.equal({ kind: 'render' });
  });

  it('admin only: sends a member to top', () => {
    expect(decideAccess('admin', member)).to.deep.equal({ kind: 'redirect', to: '/', replace: true });
  });

  it('admin only: renders for a manager', () => {
    expect(decideAccess('admin', manager)).to.deep.equal({ kind: 'render' });
  });

  it('admin only: sends a visitor to sign-in first', () => {
    expect((decideAccess('admin', visitor) as { to: string }).to).to.match(/^\/signin\?returnTo=/);
  });
});

describe("guard decisions under an organisation's two-step rule (issue 44)", () => {
  const held = { ...manager, heldAtSetup: true };

  it('sends a password-only session of such an organisation to Sign-in security from every page, a page that calls no organisation API too', () => {
    for (const access of ['member', 'admin'] as const) {
      expect(decideAccess(access, held), access).to.deep.equal({ kind: 'redirect', to: '/account/security', replace: true });
    }
  });

  it('lets it stay on Sign-in security, where the second step is set up', () => {
    expect(decideAccess('member', { ...held, location: { pathname: '/account/security', search: '?enrolment=abc' } })).to.deep.equal({ kind: 'render' });
  });
});

describe('whether a session is held at set-up, read from its access token (issue 44)', () => {
  const token = (claims: Record<string, unknown>) => `x.${btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.y`;
  const stateWith = (accessToken: string | null) => ({ session: { ...initialSessionState, session: accessToken ? ({ token: accessToken } as Session) : null } });

  it('holds a session whose organisation requires two steps and which signed in with a password only', () => {
    expect(isHeldAtSetup(stateWith(token({ two_step_required: true, amr: ['pwd'] })))).to.equal(true);
  });

  it('lets through a two-step session, a session of an organisation without the rule, a token it cannot read, and no session', () => {
    expect(isHeldAtSetup(stateWith(token({ two_step_required: true, amr: ['pwd', 'otp', 'mfa'] })))).to.equal(false);
    expect(isHeldAtSetup(stateWith(token({ amr: ['pwd'] })))).to.equal(false);
    expect(isHeldAtSetup(stateWith('not-a-jwt'))).to.equal(false);
    expect(isHeldAtSetup(stateWith(null))).to.equal(false);
  });
});
