import { expect } from 'chai';
import { Ajv } from 'ajv';
import ajvErrors from 'ajv-errors';
import type { RJSFSchema } from '@rjsf/utils';
import { AJV_OPTIONS } from '../../../src/configuration/ajvOptions.js';
import { loadFormSchemas, loadLocales, loadScreens } from '../../../src/configuration/load.js';
import { screenDefinitionSchema } from '../../../src/configuration/screenSchema.js';
import type { ChartBlock } from '../../../src/common/screens.js';
import { chartData } from '../../../src/client/engine/screen/blocks/ChartView.js';
import { resolveValue } from '../../../src/client/engine/screen/values.js';
import { BLOCK_SAMPLE_DATA, BLOCK_SAMPLES, blocksSummary, fieldSchema, screenSummary, wrongSample, wrongValue } from '../../../src/client/screens/galleryValues.js';

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

  it('summarises a chart by its value, categories and series', () => {
    expect(blocksSummary([{ type: 'chart', title: 'a.b', caption: 'a.c', points: '$data.x', x: 'month', series: 'serviceGroupName', value: 'learners' }])).to.equal(
      'chart(learners by month and serviceGroupName)',
    );
  });

  it('the sample blocks are blocks as screens/ has them, their words are in both languages, and the chart has points to draw', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile({ $defs: screenDefinitionSchema.$defs, $ref: '#/$defs/block' });
    const locales = loadLocales();
    const word = (language: 'ja' | 'en', key: string) => key.split('.').reduce<any>((node, step) => node?.[step], locales[language]);
    expect(BLOCK_SAMPLES.map((sample) => sample.type)).to.include('chart');
    for (const sample of BLOCK_SAMPLES) {
      for (const { label, block } of sample.variants) {
        expect(validate(block), `${sample.type}: ${JSON.stringify(validate.errors)}`).to.equal(true);
        const keys = [label, ...(['title', 'caption', 'empty'] as const).map((name) => (block as unknown as Record<string, string | undefined>)[name]).filter((key) => key !== undefined)];
        for (const key of keys) for (const language of ['ja', 'en'] as const) expect(word(language, key!), `${language} ${key}`).to.be.a('string');
      }
    }
    const [withPoints, withoutPoints] = BLOCK_SAMPLES.find((sample) => sample.type === 'chart')!.variants.map((variant) => variant.block as ChartBlock);
    const pointsOf = (block: ChartBlock) => resolveValue(block.points, { data: { sample: BLOCK_SAMPLE_DATA } }) as unknown[];
    const drawn = chartData(pointsOf(withPoints!), withPoints!);
    expect(drawn.categories).to.deep.equal(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06']);
    expect(drawn.series).to.deep.equal(['Unlimited Library', 'Business English', 'Leadership Program']);
    expect(pointsOf(withoutPoints!)).to.deep.equal([]);
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
