import { expect } from 'chai';
import { titleOf } from '../../../../src/client/engine/screen/screenLabels.js';
import { screenById } from '../../../../src/client/engine/screen/navigation.js';

describe('page frame: the page title of a step (SPEC 2.11: new index / confirm / done)', () => {
  it("a step's own title where the screen gives one, else the screen's title", () => {
    const wizard = screenById('subscription-new');
    expect(titleOf(wizard, 'input')).to.equal('subscriptions.wizard.new.titles.input');
    expect(titleOf(wizard, 'confirm')).to.equal('subscriptions.wizard.new.titles.confirm');
    expect(titleOf(wizard, 'done')).to.equal('subscriptions.wizard.new.titles.done');
    expect(titleOf(screenById('subscription-edit'), 'confirm')).to.equal('subscriptions.wizard.edit.titles.confirm');
    const contacts = screenById('contacts');
    expect(titleOf(contacts, undefined)).to.equal(contacts.title);
  });
});
