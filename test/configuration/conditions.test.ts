import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { AJV_OPTIONS } from '../../src/configuration/ajvOptions.js';
import { ConditionError, normaliseCondition, resolveConditions } from '../../src/configuration/conditions.js';
import { FRAGMENTS_DIR, jsonFiles, loadFormSchemas, loadFragments, loadNavigation, loadScreens, PROJECT_ROOT, readJson, screenFiles } from '../../src/configuration/load.js';
import { DEFINITION_SCHEMA_DIR, JSON_SCHEMA_DRAFT } from '../../src/configuration/screenSchema.js';
import { conditionStats } from '../../scripts/condition-stats.js';

/** Whether the context satisfies the condition, compiled as the build compiles it. */
function holds(source: unknown, context: object, names = {}): boolean {
  return new Ajv({ ...AJV_OPTIONS }).compile(normaliseCondition(source, names))(context) === true;
}

describe('configuration/conditions: the short form and named conditions', () => {
  it('a path and a value: the value at the path exists and is that value (const); a list is one of its values', () => {
    expect(normaliseCondition({ load: 'loaded' })).to.deep.equal({ required: ['load'], properties: { load: { const: 'loaded' } } });
    expect(holds({ load: 'loaded' }, { load: 'loaded' })).to.equal(true);
    expect(holds({ load: 'loaded' }, { load: 'failed' })).to.equal(false);
    expect(holds({ load: 'loaded' }, {})).to.equal(false);
    expect(holds({ 'data.detail.service.serviceGroup.id': [1, 7] }, { data: { detail: { service: { serviceGroup: { id: 7 } } } } })).to.equal(true);
    expect(holds({ 'data.detail.service.serviceGroup.id': [1, 7] }, { data: { detail: { service: { serviceGroup: null } } } })).to.equal(false);
    expect(holds({ 'values.detail': true }, { values: { detail: 'yes' } })).to.equal(false); // true is the value true, not "anything"
  });

  it('a path and a schema object: the value at the path matches it; {"$data": pointer} is another value of the context', () => {
    expect(normaliseCondition({ 'form.projectClassId': { minimum: 1 } })).to.deep.equal({
      required: ['form'],
      properties: { form: { type: 'object', required: ['projectClassId'], properties: { projectClassId: { minimum: 1 } } } },
    });
    expect(holds({ 'form.projectClassId': { minimum: 1 } }, { form: { projectClassId: 3 } })).to.equal(true);
    expect(holds({ 'form.projectClassId': { minimum: 1 } }, { form: {} })).to.equal(false);
    expect(holds({ 'item.admin.id': { $data: '/me/id' } }, { me: { id: 1 }, item: { admin: { id: 1 } } })).to.equal(true);
    expect(holds({ 'item.admin.id': { $data: '/me/id' } }, { me: { id: 1 }, item: { admin: { id: 2 } } })).to.equal(false);
  });

  it('several paths all hold, sharing their steps; a key with a dot is a path, one without is a keyword when it is one', () => {
    expect(normaliseCondition({ 'local.preview': 'on', 'local.users': { type: 'array' } })).to.deep.equal({
      required: ['local'],
      properties: { local: { type: 'object', required: ['preview', 'users'], properties: { preview: { const: 'on' }, users: { type: 'array' } } } },
    });
    expect(normaliseCondition({ role: 'manager', not: { 'state.email': {} } })).to.deep.equal({
      required: ['role'],
      properties: { role: { const: 'manager' } },
      not: { required: ['state'], properties: { state: { type: 'object', required: ['email'], properties: { email: {} } } } },
    });
    // JSON Schema as before: keywords keep their meaning, so a long condition is its own full form
    const long = { properties: { load: { const: 'loaded' } } };
    expect(normaliseCondition(long)).to.deep.equal(long);
  });

  it('a list holds when all of its conditions do; not, anyOf and the others take conditions in any form', () => {
    const names = { manager: { role: 'manager' }, ownRow: { 'item.admin.id': { $data: '/me/id' } } };
    const othersRow = ['manager', { not: 'ownRow' }];
    expect(holds(othersRow, { role: 'manager', me: { id: 1 }, item: { admin: { id: 2 } } }, names)).to.equal(true);
    expect(holds(othersRow, { role: 'manager', me: { id: 1 }, item: { admin: { id: 1 } } }, names)).to.equal(false);
    expect(holds({ anyOf: [{ role: 'member' }, 'ownRow'] }, { role: 'member', me: { id: 1 }, item: { admin: { id: 2 } } }, names)).to.equal(true);
  });

  it('a name is its definition; an unknown name, a loop of names and a value that is no condition are refused', () => {
    const names = { withClass: { 'form.projectClassId': { minimum: 1 } }, withoutClass: { not: 'withClass' }, a: 'b', b: { not: 'a' } };
    expect(normaliseCondition('withoutClass', names)).to.deep.equal({ not: normaliseCondition({ 'form.projectClassId': { minimum: 1 } }) });
    expect(() => normaliseCondition('noSuchName', names)).to.throw(ConditionError, /^unknown condition "noSuchName"; known: withClass, withoutClass, a, b$/);
    expect(() => normaliseCondition('a', names)).to.throw(ConditionError, /names itself \(a → b → a\)/);
    expect(() => normaliseCondition(3)).to.throw(ConditionError, /a name, a list or an object/);
    expect(() => normaliseCondition({ 'form..id': 1 })).to.throw(ConditionError, /an empty step/);
  });

  it("resolves a definition's conditions with its own names over the shared ones, and drops `conditions` and `$schema`", () => {
    const definition = { $schema: './schema/screen.schema.json', id: 'x', blocks: [{ type: 'form', when: 'loaded' }], conditions: { loaded: { load: 'done' } } };
    expect(resolveConditions(definition, { loaded: { load: 'loaded' } })).to.deep.equal({ id: 'x', blocks: [{ type: 'form', when: normaliseCondition({ load: 'done' }) }] });
    expect(() => resolveConditions({ blocks: [{ type: 'form', when: 'nothing' }] })).to.throw(ConditionError, /^\/blocks\/0\/when: unknown condition "nothing"/);
  });

  it('the loaded screens, fragments and menu carry every condition in full (what the build precompiles and the browser looks up)', () => {
    const conditions: unknown[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') for (const [key, child] of Object.entries(value)) (key === 'when' ? conditions.push(child) : visit(child));
    };
    const screens = loadScreens();
    visit([screens, loadFragments(), loadNavigation()]);
    expect(conditions.length).to.be.greaterThan(150);
    for (const condition of conditions) expect(normaliseCondition(condition)).to.deep.equal(condition);
    expect(screens.filter((screen) => 'conditions' in screen || '$schema' in screen)).to.deep.equal([]);
  });

  it('the screens write no condition twice, none in the long form, and all of them in less than 14 KB (28 KB before)', () => {
    const { bytes, repeated, longForm } = conditionStats();
    expect(repeated).to.deep.equal([]);
    expect(longForm).to.deep.equal([]);
    expect(bytes).to.be.lessThan(14_000);
  });
});

describe('configuration: every file names its schema, and validates against it as an editor would', () => {
  const schemaFile = (kind: string) => readJson<object>(path.join(PROJECT_ROOT, DEFINITION_SCHEMA_DIR, `${kind}.schema.json`));
  const files = [
    ...screenFiles(path.join(PROJECT_ROOT, 'screens')).map((name) => ({ file: `screens/${name}`, kind: 'screen' })),
    { file: 'screens/conditions.json', kind: 'conditions' },
    ...jsonFiles(path.join(PROJECT_ROOT, 'screens', FRAGMENTS_DIR)).map((name) => ({ file: `screens/${FRAGMENTS_DIR}/${name}`, kind: 'fragment' })),
    { file: 'frame/navigation.json', kind: 'navigation' },
  ];

  it('each screen, fragment, conditions and menu file names its schema in screens/schema/ and passes it', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const { file, kind } of files) {
      const json = readJson<Record<string, unknown>>(path.join(PROJECT_ROOT, file));
      expect(path.resolve(path.dirname(path.join(PROJECT_ROOT, file)), String(json.$schema)), file).to.equal(path.join(PROJECT_ROOT, DEFINITION_SCHEMA_DIR, `${kind}.schema.json`));
      const validate = ajv.getSchema(kind) ?? (ajv.addSchema(schemaFile(kind), kind), ajv.getSchema(kind)!);
      expect(validate(json) ? [] : validate.errors, file).to.deep.equal([]);
    }
  });

  it('each form schema names the draft ajv uses; the loaded forms do not carry it', () => {
    for (const name of jsonFiles(path.join(PROJECT_ROOT, 'schemas'))) {
      expect(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'schemas', name), 'utf8')).$schema, name).to.equal(JSON_SCHEMA_DRAFT);
    }
    expect(Object.values(loadFormSchemas()).filter((schema) => '$schema' in schema)).to.deep.equal([]);
  });
});

describe('docs/configuration.md: the conditions of the guide', () => {
  it('every condition in the table of the guide is one the build compiles', () => {
    const guide = readFileSync(path.join(PROJECT_ROOT, 'docs', 'configuration.md'), 'utf8');
    const written = [...guide.matchAll(/^\| `(.+?)` \|/gm)].map((match) => JSON.parse(match[1]!));
    expect(written).to.have.length.greaterThan(8);
    const names = { withClass: { 'form.projectClassId': { minimum: 1 } }, ownRow: { 'item.admin.id': { $data: '/me/id' } }, manager: { role: 'manager' } };
    for (const condition of written) expect(() => new Ajv({ ...AJV_OPTIONS, strictSchema: true }).compile(normaliseCondition(condition, names))).not.to.throw();
  });
});
