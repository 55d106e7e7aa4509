import { expect } from 'chai';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkConfiguration } from '../../src/configuration/check.js';
import { PROJECT_ROOT } from '../../src/configuration/load.js';

/** A copy of the real configuration that a test may break. */
function copyConfiguration(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'config-'));
  for (const dir of ['schemas', 'screens', 'locales', 'frame', 'calendar']) cpSync(path.join(PROJECT_ROOT, dir), path.join(root, dir), { recursive: true });
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
    expect(files).to.have.members(['screens/subscription-new.json', 'screens/subscription-edit.json', 'screens/subscription-class-new.json', 'screens/subscription-class-edit.json']);
    edit(root, 'screens/subscription-edit.json', (json) => (json.extends = 'no-such-screen'));
    expect(checkConfiguration(root)).to.deep.include({ file: 'screens/subscription-edit.json', pointer: '/extends', message: 'screen "subscription-edit" extends an unknown screen "no-such-screen"' });
  });

  it('reports screens extending each other in a loop, and an override of a key the extended screen lacks', () => {
    edit(root, 'screens/subscription-edit.json', (json) => {
      json.lead = 'subscriptions.wizard.edit.titles.input';
      json.form.cancel = { label: 'common.cancel', action: 'back' };
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/subscription-edit.json');
    expect(problems).to.deep.include({ file: 'screens/subscription-edit.json', pointer: '/lead', message: 'the screen "subscription-new" it extends has no "lead" to override' });
    expect(problems).to.deep.include({ file: 'screens/subscription-edit.json', pointer: '/form/cancel', message: 'the form of the screen "subscription-new" it extends has no "cancel" to override' });
    edit(root, 'screens/subscription-new.json', (json) => (json.extends = 'subscription-edit'));
    expect(checkConfiguration(root)).to.deep.include.members([
      { file: 'screens/subscription-new.json', pointer: '/extends', message: 'screens extend each other in a loop: subscription-new → subscription-edit → subscription-new' },
      { file: 'screens/subscription-edit.json', pointer: '/extends', message: 'screens extend each other in a loop: subscription-edit → subscription-new → subscription-edit' },
    ]);
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

  it("reports a conflict comparing or naming a field the form does not have (issue 28)", () => {
    edit(root, 'screens/subscription-edit.json', (json) => {
      json.form.check.outcomes[1].conflict.fields.nickname = '$body.nickname';
      json.form.outcomes[1].conflict.labels.adminId = { options: '$data.affiliations.affiliations', key: 'admin.id', label: ['admin.lastName'] };
    });
    const pointers = checkConfiguration(root).filter((problem) => problem.message.startsWith('unknown field')).map((problem) => problem.pointer);
    expect(pointers).to.include('/form/check/outcomes/1/conflict/fields/nickname');
    expect(pointers).to.include('/form/outcomes/1/conflict/labels/adminId');
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
    // a '$' value comes from the screen, not from locales/: the data it reads must be loaded (registration loads none)
    const notLocale = problems.filter((problem) => problem.pointer.includes('corporationUrl') && !problem.message.startsWith('locale key'));
    expect(notLocale).to.have.deep.members([
      { file: 'screens/registration.json', pointer: '/form/uiSchema/corporationUrl/ui:options/maximum', message: 'the screen loads no data "group"; loaded: nothing' },
      { file: 'screens/registration.json', pointer: '/form/uiSchema/corporationUrl/ui:options/heading/by', message: 'the screen loads no data "group"; loaded: nothing' },
    ]);
  });

  it('reports a value or condition reading data the screen never loads or a local key nothing sets, in a screen and in a fragment it shows', () => {
    edit(root, 'screens/subscription-new.json', (json) => {
      json.form.doneBlocks[0].when = ['manager', { 'data.groups.serviceGroup.id': 2 }];
      json.form.confirmBlocks[0].values.warnings = '$local.answers.warnings';
    });
    edit(root, 'screens/users.json', (json) => (json.blocks[0].when = { not: { 'local.prevew': true } }));
    edit(root, 'screens/fragments/contact-preview.json', (json) => json.blocks.push({ type: 'text', text: 'subscriptionSummary.preview.line', values: { value: '$data.contact.email' } }));
    const problems = checkConfiguration(root);
    expect(problems).to.deep.include({ file: 'screens/subscription-new.json', pointer: '/form/doneBlocks/0/when', message: 'the screen loads no data "groups"; loaded: project, subscription, group, services, affiliations, classes, contacts, billingContacts, target' });
    expect(problems).to.deep.include({ file: 'screens/subscription-new.json', pointer: '/form/confirmBlocks/0/values/warnings', message: `nothing on the screen sets "local.answers" (an outcome's "set")` });
    expect(problems).to.deep.include({ file: 'screens/users.json', pointer: '/blocks/0/when', message: `nothing on the screen sets "local.prevew" (an outcome's "set")` });
    expect(problems.filter((problem) => problem.file === 'screens/fragments/contact-preview.json').map((problem) => problem.message)).to.include(
      'the screen loads no data "contact"; loaded: subscription (the screen subscription-details, screens/subscription-details.json, shows this fragment)',
    );
  });

  it("reports a fragment's value not given, a value it does not take, and a fragment reading a value it does not take", () => {
    edit(root, 'screens/subscription-details.json', (json) => {
      delete json.blocks[5].values.detail;
      json.blocks[5].values.colour = 'red';
    });
    edit(root, 'screens/fragments/contact-preview.json', (json) => (json.blocks[0].when = { 'values.person': { type: 'object' } }));
    const problems = checkConfiguration(root);
    expect(problems).to.deep.include({ file: 'screens/subscription-details.json', pointer: '/blocks/5', message: 'the fragment "subscription-summary" needs the value "detail" (give null when there is none)' });
    expect(problems).to.deep.include({ file: 'screens/subscription-details.json', pointer: '/blocks/5/values/colour', message: 'the fragment "subscription-summary" takes no value "colour"; it takes: subscription, detail, warnings' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '/blocks/0/when', message: 'the fragment takes no value "person"; it takes: contact' });
  });

  it("reports step names that are not the form's steps: labels, titles, confirm and done blocks, a check, a navigation to done", () => {
    edit(root, 'screens/account-name.json', (json) => {
      json.stepLabels = { confirm: 'common.steps.confirm' };
      json.form.doneBlocks = [];
      json.form.outcomes[0].navigate = 'done';
    });
    edit(root, 'screens/subscription-new.json', (json) => (json.form.steps = ['input', 'done']));
    const problems = checkConfiguration(root);
    const known = "its form's steps: input";
    expect(problems).to.deep.include({ file: 'screens/account-name.json', pointer: '/stepLabels/confirm', message: `no step "confirm"; ${known}` });
    expect(problems).to.deep.include({ file: 'screens/account-name.json', pointer: '/form/doneBlocks', message: `needs the step "done"; ${known}` });
    expect(problems).to.deep.include({ file: 'screens/account-name.json', pointer: '/form/outcomes/0/navigate', message: `no step "done"; ${known}` });
    const wizard = problems.filter((problem) => problem.file === 'screens/subscription-new.json').map((problem) => problem.pointer);
    expect(wizard).to.include.members(['/stepLabels/confirm', '/stepTitles/confirm', '/form/confirmBlocks', '/form/check']);
  });

  it('reports a route the engine gives the page language to that the server does not have', () => {
    const problems = checkConfiguration(root, { routes: ['GET /api/v2/services'] });
    expect(problems).to.deep.include({ file: 'src/common/translatingRoutes.ts', pointer: '', message: 'no server route GET services/:id' });
    expect(problems.filter((problem) => problem.file === 'src/common/translatingRoutes.ts').map((problem) => problem.message)).not.to.include('no server route GET services');
  });

  it('reports a locale key that a screen names but no language has', () => {
    edit(root, 'screens/registration.json', (json) => (json.title = 'registration.noSuchTitle'));
    expect(checkConfiguration(root)).to.deep.include({
      file: 'screens/registration.json',
      pointer: '/title',
      message: 'locale key "registration.noSuchTitle" is missing in ja',
    });
  });

  it("reports a chart's locale keys no language has, a field it lacks, and a value format it does not know", () => {
    const chart = { type: 'chart', title: 'memberships.noSuchChart', caption: 'memberships.noSuchCaption', points: '$data.affiliations.affiliations', x: 'month', series: 'role', value: 'count', xFormat: 'month', empty: 'memberships.noSuchEmpty' };
    edit(root, 'screens/memberships.json', (json) => json.blocks.push(chart));
    const keys = checkConfiguration(root).filter((problem) => problem.file === 'screens/memberships.json' && problem.message.endsWith('is missing in ja'));
    expect(keys.map((problem) => problem.pointer)).to.have.members(['/blocks/6/title', '/blocks/6/caption', '/blocks/6/empty']);
    edit(root, 'screens/memberships.json', (json) => {
      delete json.blocks[6].value;
      json.blocks[6].xFormat = 'quarter';
      json.blocks[6].title = 'memberships.title';
    });
    const shape = checkConfiguration(root).filter((problem) => problem.file === 'screens/memberships.json');
    expect(shape).to.deep.include({ file: 'screens/memberships.json', pointer: '/blocks/6', message: "must have required property 'value'" });
    expect(shape).to.deep.include({ file: 'screens/memberships.json', pointer: '/blocks/6/xFormat', message: 'must be equal to one of the allowed values' });
    expect(shape.filter((problem) => problem.message.endsWith('is missing in ja'))).to.deep.equal([]);
  });

  it('reports a screen whose access class is not one of the four', () => {
    edit(root, 'screens/registration.json', (json) => (json.access = 'everyone'));
    expect(checkConfiguration(root).map((problem) => problem.pointer)).to.include('/access');
  });

  it('takes a query parameter or a value named action for data, not for a reference to an action', () => {
    edit(root, 'screens/memberships.json', (json) => {
      json.blocks[1].items[0].screen.query = { action: 'membership.roleChanged' };
      json.actions.delete.call.query = { action: '$item.role' };
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/memberships.json');
    expect(problems.map((problem) => problem.message)).not.to.include.members(['unknown action "membership.roleChanged"', 'unknown action "$item.role"']);
    expect(problems).to.deep.equal([]);
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

  it('reports an unknown condition name, a loop of names, a named condition nothing uses, a misspelt keyword and an unknown keyword in a schema', () => {
    edit(root, 'screens/memberships.json', (json) => {
      json.blocks[0].when = 'noSuchCondition';
      json.blocks[3].when = { 'item.admin.lastName': { minLenght: 1 } };
      json.conditions.unused = { load: 'loaded' };
    });
    edit(root, 'screens/users.json', (json) => (json.blocks[0].when = { requird: ['local'] }));
    edit(root, 'screens/conditions.json', (json) => (json.activationFlow = { not: 'activationFlow' }));
    const problems = checkConfiguration(root);
    const memberships = problems.filter((problem) => problem.file === 'screens/memberships.json');
    expect(memberships.find((problem) => problem.pointer === '/blocks/0/when')?.message).to.match(/^unknown condition "noSuchCondition"; known: .*afterInvitation/);
    // not a keyword, and no key of the context
    expect(problems.filter((problem) => problem.file === 'screens/users.json').map((problem) => problem.pointer)).to.include('/blocks/0/when');
    expect(memberships.find((problem) => problem.pointer === '/blocks/3/when')?.message).to.match(/condition does not compile: strict mode: unknown keyword: "minLenght"/);
    expect(memberships).to.deep.include({ file: 'screens/memberships.json', pointer: '/conditions/unused', message: 'the condition "unused" is never used' });
    expect(problems).to.deep.include({ file: 'screens/conditions.json', pointer: '/activationFlow', message: 'the condition "activationFlow" names itself (activationFlow → activationFlow)' });
  });

  it('reports a definition or form file that does not name its schema, and a schema of screens/schema/ that differs from its definition', () => {
    for (const file of ['screens/memberships.json', 'screens/fragments/contact-preview.json', 'screens/conditions.json', 'frame/navigation.json', 'schemas/contact.json']) edit(root, file, (json) => delete json.$schema);
    edit(root, 'screens/schema/screen.schema.json', (json) => (json.properties.title = { type: 'string' }));
    const problems = checkConfiguration(root);
    expect(problems).to.deep.include({ file: 'screens/memberships.json', pointer: '/$schema', message: 'must be "./schema/screen.schema.json" (the schema editors check this file against)' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '/$schema', message: 'must be "../schema/fragment.schema.json" (the schema editors check this file against)' });
    expect(problems).to.deep.include({ file: 'screens/conditions.json', pointer: '/$schema', message: 'must be "./schema/conditions.schema.json" (the schema editors check this file against)' });
    expect(problems).to.deep.include({ file: 'frame/navigation.json', pointer: '/$schema', message: 'must be "../screens/schema/navigation.schema.json" (the schema editors check this file against)' });
    expect(problems).to.deep.include({ file: 'schemas/contact.json', pointer: '/$schema', message: 'must be "http://json-schema.org/draft-07/schema#" (the draft ajv checks the form with), for editors' });
    expect(problems).to.deep.include({ file: 'screens/schema/screen.schema.json', pointer: '', message: 'is not the schema src/configuration/screenSchema.ts defines: run npm run schemas' });
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
    expect(problems).to.deep.include({ file: 'screens/subscription-details.json', pointer: '/blocks/8/name', message: 'unknown fragment "no-such-fragment"; known: class-header, contact-preview, subscription-summary' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '', message: 'the fragment "contact-preview" shows itself' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '/blocks/2/items/0/action', message: 'unknown action "noSuchAction" of the screen subscription-details (screens/subscription-details.json) that shows it' });
    expect(problems).to.deep.include({ file: 'screens/fragments/contact-preview.json', pointer: '/blocks/3/text', message: 'locale key "subscriptionSummary.noSuchWord" is missing in en' });
  });

  it('reports a fragment file that is not a list of blocks', () => {
    edit(root, 'screens/fragments/contact-preview.json', (json) => (json.blocks[0].type = 'no-such-block'));
    expect(checkConfiguration(root).filter((problem) => problem.file === 'screens/fragments/contact-preview.json')).to.not.deep.equal([]);
  });

  it("reports a table's loadsMore naming no paged data entry, or on a table that is not virtual", () => {
    edit(root, 'screens/users.json', (json) => {
      delete json.data.users.pages;
      const rowErrors = json.blocks.find((block: { rows?: string }) => block.rows === '$local.rowErrors');
      delete rowErrors.virtual;
      rowErrors.loadsMore = 'users';
    });
    const problems = checkConfiguration(root).filter((problem) => problem.file === 'screens/users.json');
    const message = '"users" is no paged data entry of this screen (data.users.pages)';
    expect(problems.filter((problem) => problem.message === message)).to.have.length(2);
    expect(problems.map((problem) => problem.message)).to.include('only a virtual table loads more as it scrolls');
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
