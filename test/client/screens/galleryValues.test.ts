import { expect } from 'chai';
import { Ajv } from 'ajv';
import ajvErrors from 'ajv-errors';
import type { RJSFSchema } from '@rjsf/utils';
import { AJV_OPTIONS } from '../../../src/configuration/ajvOptions.js';
import { loadFormSchemas, loadScreens } from '../../../src/configuration/load.js';
import { blocksSummary, fieldSchema, screenSummary, wrongSample, wrongValue } from '../../../src/client/screens/galleryValues.js';

describe('screen gallery values', () => {
  it('summarises a screen: component, form, blocks (panels inside), data and actions', () => {
    expect(
      blocksSummary([
        { type: 'text', text: 'a.b' },
        { type: 'panel', blocks: [{ type: 'links', items: [] }] },
        { type: 'table', rows: '$data.x', caption: 'a.c', columns: [{ title: 'a.d', cells: [] }] },
      ]),
    ).to.equal('text, panel(links), table(1 columns)');
    const memberships = loadScreens().find((screen) => screen.id === 'memberships')!;
    const labels = screenSummary(memberships).map((row) => row.label);
    expect(labels).to.include.members(['blocks', 'data', 'actions', 'width']);
  });

  it('merges a local $ref into the field schema', () => {
    const root: RJSFSchema = { $defs: { email: { type: 'string', maxLength: 100 } } };
    expect(fieldSchema(root, { $ref: '#/$defs/email', title: 'x.y' })).to.deep.equal({ type: 'string', maxLength: 100, title: 'x.y' });
  });

  it('a wrong value breaks the pattern at an allowed length, else is a character too long; choices get none', () => {
    expect(wrongValue({ type: 'string', pattern: '^[0-9]+$', maxLength: 15 })).to.equal('!?');
    expect(wrongValue({ type: 'string', minLength: 8, pattern: '^(?=.*[0-9])[\\x21-\\x7E]+$' })).to.equal('abc!?#$%');
    expect(wrongValue({ type: 'string', maxLength: 3 })).to.equal('xxxx');
    expect(wrongValue({ type: 'string', oneOf: [{ const: 'a' }] })).to.equal(undefined);
    expect(wrongValue({ type: 'string' })).to.equal(undefined);
  });

  it('every form with typed fields gets wrong values its validator refuses, leaving the captcha and hidden fields alone', () => {
    const schemas = loadFormSchemas();
    const screens = loadScreens();
    for (const [name, schema] of Object.entries(schemas)) {
      const uiSchema = screens.find((screen) => screen.form?.schema === name)?.form?.uiSchema;
      const sample = wrongSample(schema as RJSFSchema, uiSchema);
      // a form of choices only (e.g. the role) has no wrong value to type: its empty variant shows its message
      const typed = Object.values((schema as RJSFSchema).properties ?? {}).some((property) => wrongValue(fieldSchema(schema as RJSFSchema, property as RJSFSchema)) !== undefined);
      if (!typed) continue;
      expect(Object.keys(sample), name).not.to.be.empty;
      expect(sample, name).not.to.have.any.keys('capyAnswer', 'capyChallengekey');
      const validate = ajvErrors(new Ajv({ ...AJV_OPTIONS })).compile(schema);
      expect(validate(sample), name).to.equal(false);
      const refused = new Set((validate.errors ?? []).map((error) => error.instancePath.split('/')[1]));
      for (const field of Object.keys(sample)) expect(refused.has(field), `${name}.${field}`).to.equal(true);
    }
  });

  it('an array of rows (the learner grid) gets one row of wrong values, which its schema refuses', () => {
    const schema = {
      type: 'object',
      $defs: { email: { type: 'string', maxLength: 100, pattern: '^[^@\\s]+@[^@\\s]+$' } },
      properties: {
        users: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'integer' }, firstName: { type: 'string', maxLength: 3 }, email: { $ref: '#/$defs/email' } } },
        },
      },
    } as RJSFSchema;
    const sample = wrongSample(schema, { users: { 'ui:field': 'LearnerGrid' } });
    expect(sample).to.deep.equal({ users: [{ firstName: 'xxxx', email: '!?' }] });
    const validate = new Ajv({ ...AJV_OPTIONS }).compile(schema);
    expect(validate(sample)).to.equal(false);
  });
});
