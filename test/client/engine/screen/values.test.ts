import { expect } from 'chai';
import { chooseOutcome } from '../../../../src/client/engine/screen/calls.js';
import { matches } from '../../../../src/client/engine/screen/conditions.js';
import { screenById } from '../../../../src/client/engine/screen/navigation.js';
import { loadScreen } from '../../../../src/client/engine/screen/screenModule.js';
import { queryOf, resolveValue, resolveValues } from '../../../../src/client/engine/screen/values.js';
import { chooseLanguage } from '../../../../src/client/engine/i18n.js';

// the full definitions (the first load has each screen's route entry only)
await Promise.all(['memberships', 'membershipInvite', 'accountPassword'].map((id) => loadScreen(id)));

describe('engine/screen: values, conditions and outcome rows', () => {
  it('a value: $path reads the context, anything else is a literal', () => {
    const context = { state: { email: 'a@example.com' }, item: { admin: { id: 3 } } };
    expect(resolveValue('$state.email', context)).to.equal('a@example.com');
    expect(resolveValue('$item.admin.id', context)).to.equal(3);
    expect(resolveValue('$item.nothing.here', context)).to.equal(undefined);
    expect(resolveValues({ flow: 'activation', id: '$item.admin.id' }, context)).to.deep.equal({ flow: 'activation', id: 3 });
  });

  it("a path's negative index counts from an array's end; * takes the rest of the path from every element", () => {
    const context = { item: { services: [{ name: 'A', group: { id: 1 } }, { name: 'B', group: { id: 3 } }], empty: [] } };
    expect(resolveValue('$item.services.-1.group.id', context)).to.equal(3);
    expect(resolveValue('$item.services.0.name', context)).to.equal('A');
    expect(resolveValue('$item.services.*.name', context)).to.deep.equal(['A', 'B']);
    expect(resolveValue('$item.services.*.group.id', context)).to.deep.equal([1, 3]);
    expect(resolveValue('$item.services.length', context)).to.equal(2);
    expect(resolveValue('$item.empty.-1.name', context)).to.equal(undefined);
    expect(resolveValue('$item.nothing.*.name', context)).to.equal(undefined);
  });

  it('the query of a mailed link: a literal "amp;" (kept by a mail client) is ignored (SPEC 2.5)', () => {
    expect(queryOf('?admin_id=5&amp;token=abc_DEF-1&amp;locale=en')).to.deep.equal({ admin_id: '5', token: 'abc_DEF-1', locale: 'en' });
    expect(chooseLanguage('?admin_id=5&amp;token=abc&amp;locale=en', 'ja')).to.equal('en');
  });

  it('a condition is a precompiled JSON Schema over the context; $data compares two of its values (the own row)', () => {
    const ownRow = screenById('memberships').blocks![4]!;
    const select = (ownRow as { columns: Array<{ cells: Array<{ when?: Record<string, unknown> }> }> }).columns[2]!.cells[1]!.when;
    expect(matches(select, { role: 'manager', me: { id: 1 }, item: { admin: { id: 2 } } })).to.equal(true);
    expect(matches(select, { role: 'manager', me: { id: 1 }, item: { admin: { id: 1 } } })).to.equal(false);
    expect(matches(select, { role: 'member', me: { id: 1 }, item: { admin: { id: 2 } } })).to.equal(false);
    expect(matches(undefined, {})).to.equal(true);
    expect(() => matches({ const: 'never seen by the build' }, {})).to.throw(/not precompiled/);
  });

  it('outcome rows: the first that matches by on, code and a condition over the answer', () => {
    const outcomes = screenById('membershipInvite').form!.outcomes!;
    const joined = chooseOutcome(outcomes, { ok: true, body: { outcome: 'joined' } }, {});
    expect(joined?.flash).to.deep.include({ message: 'memberships.invite.joined' });
    const invited = chooseOutcome(outcomes, { ok: true, body: { outcome: 'invited' } }, {});
    expect(invited?.navigate).to.deep.include({ screen: 'memberships', state: { email: '$body.affiliation.admin.email' } });
    expect(chooseOutcome(outcomes, { ok: false, status: 304 }, {})?.flash).to.deep.include({ message: 'memberships.invite.alreadyRegistered' });
    expect(chooseOutcome(outcomes, { ok: false, status: 500, code: 'internal_error' }, {})).to.include({ on: 'failure', general: true });
    const password = screenById('accountPassword').form!.outcomes!;
    expect(chooseOutcome(password, { ok: false, status: 400, code: 'other' }, {})).to.equal(undefined);
    expect(chooseOutcome(password, { ok: false, status: 400, code: 'current_password_mismatch' }, {})).to.include({ field: 'current' });
  });
});
