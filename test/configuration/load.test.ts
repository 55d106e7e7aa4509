import { expect } from 'chai';
import { loadScreens, resolveExtends } from '../../src/configuration/load.js';

describe('configuration/load resolveExtends (a screen extending another)', () => {
  const base = { id: 'a', path: '/a', access: 'admin', title: 'a.title', form: { schema: 's', uiSchema: { x: 1 }, submit: { path: 'p' } } };

  it("lays the screen's own keys over its base, and its form's keys over the base's form", () => {
    const [, edit] = resolveExtends([base, { id: 'b', extends: 'a', path: '/b', form: { submit: { path: 'q' } } }]);
    expect(edit).to.deep.equal({ id: 'b', path: '/b', access: 'admin', title: 'a.title', form: { schema: 's', uiSchema: { x: 1 }, submit: { path: 'q' } } });
  });

  it('follows a chain and refuses an unknown or circular base', () => {
    const [, , c] = resolveExtends([base, { id: 'b', extends: 'a', title: 'b.title' }, { id: 'c', extends: 'b', path: '/c' }]);
    expect(c).to.include({ id: 'c', path: '/c', title: 'b.title', access: 'admin' });
    expect(() => resolveExtends([{ id: 'b', extends: 'nope' }])).to.throw('screen "b" extends an unknown screen "nope"');
    expect(() => resolveExtends([{ id: 'b', extends: 'c' }, { id: 'c', extends: 'b' }])).to.throw('screens extend each other in a loop: b → c → b');
    expect(() => resolveExtends([{ id: 'b', extends: 'b' }])).to.throw('screens extend each other in a loop: b → b');
  });

  it('the edit application wizard is the new one with its own calls, data and words', () => {
    const screens = loadScreens();
    const [created, edited] = ['subscription-new', 'subscription-edit'].map((id) => screens.find((screen) => screen.id === id)!);
    expect(edited!.form!.uiSchema).to.deep.equal(created!.form!.uiSchema);
    expect(edited!.form!.submit).to.include({ method: 'PATCH' });
    expect(edited).not.to.have.property('extends');
  });
});
