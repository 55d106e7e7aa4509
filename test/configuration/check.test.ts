import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkConfiguration } from '../../src/configuration/check.js';
import { PROJECT_ROOT } from '../../src/configuration/load.js';

/** A copy of the real configuration that a test may break. */
function copyConfiguration(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'config-'));
  for (const dir of ['schemas', 'screens', 'locales']) cpSync(path.join(PROJECT_ROOT, dir), path.join(root, dir), { recursive: true });
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
});
