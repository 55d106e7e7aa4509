import { expect } from 'chai';
import { decideAccess, type AccessContext } from '../../../src/client/engine/guard.js';

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
