import { expect } from 'chai';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkConfiguration } from '../../src/configuration/check.js';
import { PROJECT_ROOT } from '../../src/configuration/load.js';

/** A copy of the real configuration that a test may break. */
function copyConfiguration(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'config-'));
  for (const dir of ['schemas', 'screens', 'locales', 'frame']) cpSync(path.join(PROJECT_ROOT, dir), path.join(root, dir), { recursive: true });
  return root;
}

function edit(root: string, file: string, change: (json: any) => void): void {
  const full = path.join(root, file);
  const json = JSON.parse(readFileSync(full, 'utf8'));
  change(json);
  writeFileSync(full, JSON.stringify(json));
}

describe('configuration check', () => {
  let root: string;
  beforeEach(() => {
    root = copyConfiguration();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds no problem in the configuration as committed', () => {
    expect(checkConfiguration()).to.deep.equal([]);
  });

  it('reports a key missing in one language with its file and pointer', () => {
    edit(root, 'locales/ja/registration.json', (json) => delete json.fields.email);
    expect(checkConfiguration(root)).to.deep.include({
      file: 'locales/ja/registration.json',
      pointer: '/fields/email',
      message: 'missing in ja (present in en)',
    });
  });

  it('reports a schema that does not compile', () => {
    edit(root, 'schemas/registration-request.json', (json) => (json.properties.email = { $ref: '#/$defs/nowhere' }));
    const problems = checkConfiguration(root);
    expect(problems.map((problem) => problem.file)).to.include('schemas/registration-request.json');
    expect(problems.find((problem) => problem.file === 'schemas/registration-request.json')?.message).to.match(/does not compile/);
  });

  it('reports a file that does not parse', () => {
    writeFileSync(path.join(root, 'screens/registration.json'), '{ "id": ');
    expect(checkConfiguration(root)[0]).to.include({ file: 'screens/registration.json', pointer: '' });
  });

  it('reports a screen naming an unknown form', () => {
    edit(root, 'screens/registration.json', (json) => (json.form.schema = 'no-such-form'));
    const problem = checkConfiguration(root).find((entry) => entry.pointer === '/form/schema');
    expect(problem?.file).to.equal('screens/registration.json');
    expect(problem?.message).to.match(/^unknown form "no-such-form"; known: .*registration-request/);
  });

  it('checks a screen that extends another as the merged screen, and reports an unknown base', () => {
    // the edit wizard inherits the new wizard's uiSchema: a wrong widget there is the edit wizard's problem too
    edit(root, 'screens/subscription-new.json', (json) => (json.form.uiSchema.billingNote['ui:widget'] = 'NoSuchWidget'));
    const files = checkConfiguration(root).filter((problem) => problem.pointer === '/form/uiSchema/billingNote/ui:widget').map((problem) => problem.file);
    expect(files).to.have.members(['screens/subscription-new.json', 'screens/subscription-edit.json']);
    edit(root, 'screens/subscription-edit.json', (json) => (json.extends = 'no-such-screen'));
    expect(checkConfiguration(root)).to.deep.include({ file: 'screens/subscription-edit.json', pointer: '/extends', message: 'screen "subscription-edit" extends an unknown or circular screen "no-such-screen"' });
  });

  it('reports a screen naming an unknown component', () => {
    edit(root, 'screens/registration.json', (json) => (json.component = 'NoSuchComponent'));
    const problem = checkConfiguration(root).find((entry) => entry.pointer === '/component');
    expect(problem?.file).to.equal('screens/registration.json');
    expect(problem?.message).to.match(/unknown component "NoSuchComponent"/);
  });

  it('reports an unknown widget and an unknown field in a uiSchema', () => {
    edit(root, 'screens/registration.json', (json) => {
      json.form.uiSchema.email['ui:widget'] = 'NoSuchWidget';
      json.form.uiSchema.nickname = {};
    });
    const pointers = checkConfiguration(root).map((problem) => problem.pointer);
    expect(pointers).to.include('/form/uiSchema/email/ui:widget');
    expect(pointers).to.include('/form/uiSchema/nickname');
  });

  it("reports in a ui:bind an unknown function, binding and locale key, and a form's unknown payload rule", () => {
    edit(root, 'screens/subscription-new.json', (json) => {
      json.form.uiSchema.startsOn['ui:bind'].options.min = { fn: 'noSuchFunction', args: ['$today'] };
      json.form.uiSchema.startsOn['ui:bind'].notes[0].text = 'subscriptions.wizard.noSuchNote';
      json.form.uiSchema.contactId['ui:bind'].hide = { when: {} };
      json.form.transform.name = 'noSuchRule';
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/subscription-new.json');
    expect(problems.find((problem) => problem.pointer === '/form/uiSchema/startsOn/ui:bind/options/min/fn')?.message).to.match(/^unknown function "noSuchFunction"; known: earliestStartsOn, latestStartsOn/);
    expect(problems.find((problem) => problem.pointer === '/form/uiSchema/startsOn/ui:bind/notes/0/text')?.message).to.equal('locale key "subscriptions.wizard.noSuchNote" is missing in ja');
    expect(problems.find((problem) => problem.pointer === '/form/uiSchema/contactId/ui:bind/hide')?.message).to.match(/^unknown binding "hide"/);
    expect(problems.find((problem) => problem.pointer === '/form/transform/name')?.message).to.match(/^unknown payload rule "noSuchRule"; known: subscription/);
  });

  it("reports an unknown ui:field, ui:options a field's schema refuses, and a missing locale key in a field's options", () => {
    edit(root, 'screens/registration.json', (json) => {
      json.form.uiSchema.address = { 'ui:field': 'NoSuchField' };
      json.form.uiSchema.zipCode = { 'ui:field': 'LearnerGrid', 'ui:options': { rows: 0, colour: 'red' } };
      json.form.uiSchema.corporationUrl = {
        'ui:field': 'LearnerGrid',
        'ui:options': { maximum: '$data.group.maximumUsers', heading: { by: '$data.group.selection', keys: { multi: 'learnerGrid.noSuchHeading' } } },
      };
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/registration.json');
    expect(problems.find((problem) => problem.pointer === '/form/uiSchema/address/ui:field')?.message).to.match(/^unknown field "NoSuchField"; known: LearnerGrid/);
    expect(problems.map((problem) => problem.pointer)).to.include.members(['/form/uiSchema/zipCode/ui:options/rows', '/form/uiSchema/zipCode/ui:options']);
    expect(problems).to.deep.include({
      file: 'screens/registration.json',
      pointer: '/form/uiSchema/corporationUrl/ui:options/heading/keys/multi',
      message: 'locale key "learnerGrid.noSuchHeading" is missing in ja',
    });
    // a '$' value comes from the screen, not from locales/
    expect(problems.filter((problem) => problem.pointer.includes('corporationUrl'))).to.have.length(2);
  });

  it('reports a locale key that a screen names but no language has', () => {
    edit(root, 'screens/registration.json', (json) => (json.title = 'registration.noSuchTitle'));
    expect(checkConfiguration(root)).to.deep.include({
      file: 'screens/registration.json',
      pointer: '/title',
      message: 'locale key "registration.noSuchTitle" is missing in ja',
    });
  });

  it('reports a screen whose access class is not one of the four', () => {
    edit(root, 'screens/registration.json', (json) => (json.access = 'everyone'));
    expect(checkConfiguration(root).map((problem) => problem.pointer)).to.include('/access');
  });

  it('reports a link to an unknown screen, an unknown action and an event no feature handles', () => {
    edit(root, 'screens/memberships.json', (json) => {
      json.blocks[1].items[0].screen.screen = 'noSuchScreen';
      json.blocks[4].columns[3].cells[0].action = 'noSuchAction';
      json.actions.delete.outcomes[0].event = 'nobody/handlesThis';
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/memberships.json');
    expect(problems).to.deep.include({ file: 'screens/memberships.json', pointer: '/blocks/1/items/0/screen/screen', message: 'unknown screen "noSuchScreen"' });
    expect(problems).to.deep.include({ file: 'screens/memberships.json', pointer: '/blocks/4/columns/3/cells/0/action', message: 'unknown action "noSuchAction"' });
    expect(problems.find((problem) => problem.pointer === '/actions/delete/outcomes/0/event')?.message).to.match(/no feature handles the event "nobody\/handlesThis"/);
  });

  it('reports an action with a confirmation but no call; an action of outcomes only is fine', () => {
    edit(root, 'screens/memberships.json', (json) => delete json.actions.delete.call);
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/memberships.json');
    expect(problems).to.deep.include({ file: 'screens/memberships.json', pointer: '/actions/delete', message: 'an action with a form or a confirmation needs a call' });
    expect(checkConfiguration(root).filter((problem) => problem.file === 'screens/users.json')).to.deep.equal([]); // select, deselect, cancelPreview
  });

  it('reports a condition that does not compile', () => {
    edit(root, 'screens/memberships.json', (json) => (json.blocks[0].when = { type: 'no-such-type' }));
    const problem = checkConfiguration(root).find((entry) => entry.pointer === '/blocks/0/when');
    expect(problem?.message).to.match(/condition does not compile/);
  });

  it('reports a call that is no route of the server, by method and path', () => {
    const routes = ['GET /api/v2/organizations/:orgId/affiliations', 'PATCH /api/v2/organizations/:orgId/affiliations/admins/:adminId'];
    edit(root, 'screens/memberships.json', (json) => (json.actions.changeRole.call.method = 'PUT'));
    const problems = checkConfiguration(root, { routes }).filter((problem) => problem.file === 'screens/memberships.json');
    expect(problems).to.deep.include({
      file: 'screens/memberships.json',
      pointer: '/actions/changeRole/call',
      message: 'no server route PUT /api/v2/organizations/:orgId/affiliations/admins/:adminId',
    });
    expect(problems.map((problem) => problem.pointer)).not.to.include('/data/affiliations');
  });

  it('reports two screens on one path', () => {
    edit(root, 'screens/roles.json', (json) => (json.path = '/memberships'));
    expect(checkConfiguration(root).map((problem) => problem.message)).to.include('/memberships is also used by screens/memberships.json');
  });

  it('checks the menu and footer of frame/navigation.json like screen links', () => {
    edit(root, 'frame/navigation.json', (json) => {
      json.menu[0].screen.screen = 'nowhere';
      json.footer[0].label = 'common.footer.noSuchLink';
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'frame/navigation.json');
    expect(problems).to.deep.include({ file: 'frame/navigation.json', pointer: '/menu/0/screen/screen', message: 'unknown screen "nowhere"' });
    expect(problems).to.deep.include({ file: 'frame/navigation.json', pointer: '/footer/0/label', message: 'locale key "common.footer.noSuchLink" is missing in en' });
  });

  it('reports a locale key written in the browser code that no language has', () => {
    const source = path.join(root, 'src', 'client', 'screens');
    mkdirSync(source, { recursive: true });
    writeFileSync(path.join(source, 'Example.tsx'), "export const label = (t: (key: string) => string) => t('common.noSuchWord');\n");
    expect(checkConfiguration(root)).to.deep.include({ file: 'src/client/screens/Example.tsx', pointer: 'line 1', message: 'locale key "common.noSuchWord" is missing in ja' });
  });

  it('reports a fragment an unknown name, one that shows itself, a word missing in a fragment and an action the showing screen lacks', () => {
    edit(root, 'screens/subscription-details.json', (json) => json.blocks.push({ type: 'fragment', name: 'no-such-fragment' }));
    edit(root, 'screens/fragments/contact-preview.json', (json) => {
      json.blocks.push({ type: 'fragment', name: 'contact-preview' });
      json.blocks.push({ type: 'links', items: [{ label: 'subscriptionSummary.edit', action: 'noSuchAction' }] });
      json.blocks.push({ type: 'text', text: 'subscriptionSummary.noSuchWord' });
    });
    const problems = checkConfiguration(root);
    expect(problems).to.deep.include({ file: 'screens/subscription-details.json', pointer: '/blocks/6/name', message: 'unknown fragment "no-such-fragment"; known: contact-preview, subscription-summary' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '', message: 'the fragment "contact-preview" shows itself' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '/blocks/2/items/0/action', message: 'unknown action "noSuchAction" of the screen subscription-details (screens/subscription-details.json) that shows it' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '/blocks/3/text', message: 'locale key "subscriptionSummary.noSuchWord" is missing in en' });
  });

  it('reports a fragment file that is not a list of blocks', () => {
    edit(root, 'screens/fragments/contact-preview.json', (json) => (json.blocks[0].type = 'no-such-block'));
    expect(checkConfiguration(root).filter((problem) => problem.file === 'screens/fragments/contact-preview.json')).to.not.deep.equal([]);
  });

  it('reports a data entry waiting for an unknown entry or, through others, for itself', () => {
    edit(root, 'screens/service-details.json', (json) => {
      json.data.detail.after = ['subscriptions'];
      json.data.subscriptions.after.push('nothing');
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/service-details.json');
    expect(problems).to.deep.include({ file: 'screens/service-details.json', pointer: '/data/subscriptions/after/1', message: 'unknown data entry "nothing"' });
    expect(problems).to.deep.include({ file: 'screens/service-details.json', pointer: '/data/detail/after', message: 'the data entry "detail" waits for itself' });
  });
});
