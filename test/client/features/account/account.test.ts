import { expect } from 'chai';
import { nameFromResponse, nameUpdated, updateMe } from '../../../../src/client/features/account/index.js';
import { organizationSelected } from '../../../../src/client/state/session.js';
import { setup } from '../../api/harness.js';

describe('features/account: the new name reaches the login context', () => {
  const admin = { id: 1, firstName: '次郎', lastName: '山本', kanaFirstName: 'じろう', kanaLastName: 'やまもと', email: 'manager@example.com' };

  it('reads the admin from {affiliation} or {admin}', () => {
    const name = { firstName: '次郎', lastName: '山本', kanaFirstName: 'じろう', kanaLastName: 'やまもと' };
    expect(nameFromResponse({ affiliation: { role: 'manager', admin } })).to.deep.equal(name);
    expect(nameFromResponse({ admin })).to.deep.equal(name);
    expect(nameFromResponse({})).to.equal(null);
  });

  it('updates me and keeps the rest', async () => {
    const harness = setup();
    harness.store.dispatch(
      organizationSelected({ organization: { id: 1, gloplaId: 'G0000001' }, me: { id: 1, firstName: '太郎', lastName: '山田', email: 'manager@example.com' }, role: 'manager' }),
    );
    await harness.run(updateMe, nameUpdated({ affiliation: { admin } })).toPromise();
    expect((harness.store.getState() as any).session.me).to.deep.equal({ ...admin });
    expect((harness.store.getState() as any).session.role).to.equal('manager');
  });
});
