import { expect } from 'chai';
import { fillRoutePath } from '../../../../src/client/engine/screen/navigation.js';
import { rememberValues } from '../../../../src/client/engine/screen/remember.js';

describe('route paths and remembered values (issue 17)', () => {
  it("fills a route's placeholders; an optional one without a value is left out with its slash (a wizard's first step)", () => {
    const path = '/project/:projectCode/subscription/:requestCode/edit/:step?';
    expect(fillRoutePath(path, { projectCode: 'PJ2026-001', requestCode: 'A000000106' })).to.equal('/project/PJ2026-001/subscription/A000000106/edit');
    expect(fillRoutePath(path, { projectCode: 'PJ 1', requestCode: 'A1', step: 'confirm' })).to.equal('/project/PJ%201/subscription/A1/edit/confirm');
    expect(() => fillRoutePath(path, { requestCode: 'A1' })).to.throw(/no value for :projectCode/);
  });

  it('keeps values in the storage under their names (SPEC §7 projectId, projectCode), never an empty one', () => {
    const kept = new Map<string, string>();
    const storage = { setItem: (name: string, value: string) => kept.set(name, value) } as unknown as Storage;
    rememberValues({ projectId: 12, projectCode: 'PJ2026-001', empty: '', missing: undefined }, storage);
    expect(Object.fromEntries(kept)).to.deep.equal({ projectId: '12', projectCode: 'PJ2026-001' });
  });
});
