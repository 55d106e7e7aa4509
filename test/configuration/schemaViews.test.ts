import { expect } from 'chai';
import { loadFormSchemas } from '../../src/configuration/load.js';
import { typeSchema, wireSchema } from '../../src/configuration/schemaViews.js';
import { toSnakeKey } from '../../src/server/api/wire.js';

type Rendered = { properties: Record<string, Record<string, unknown>>; required: string[]; title?: string };

describe('Schema views', () => {
  const registration = loadFormSchemas()['registration-request']!;

  describe('wireSchema', () => {
    it('renders the form in snake_case with shared definitions inlined and messages dropped', () => {
      const schema = wireSchema(registration, toSnakeKey) as Rendered;
      expect(schema).not.to.have.property('$defs');
      expect(schema.required).to.include('zip_code');
      expect(schema.properties.zip_code).to.include({ type: 'string', maxLength: 11 });
      expect(schema.properties.email).not.to.have.property('errorMessage');
    });

    it('turns titles and descriptions into words where it can, and drops the keys it cannot', () => {
      const words: Record<string, string> = { 'registration.fields.zipCode': 'Postal code' };
      const schema = wireSchema(registration, toSnakeKey, (key) => words[key]) as Rendered;
      expect(schema.properties.zip_code).to.include({ title: 'Postal code' });
      expect(schema.properties.zip_code).not.to.have.property('description');
      expect(schema).not.to.have.property('title');
    });
  });

  describe('typeSchema', () => {
    it('keeps only what decides the TypeScript type: structure, enums and defaults', () => {
      const schema = typeSchema(registration) as Rendered;
      expect(schema.properties.zip_code).to.equal(undefined);
      expect(schema.properties.zipCode).to.deep.equal({ type: 'string' });
      expect(schema.properties.scaleOfEmployees!.oneOf).to.deep.include({ const: '2000' });
      expect(schema).to.include({ additionalProperties: false });
      expect(schema).not.to.have.property('title');
    });

    it('leaves out the value rules of if/then (they refine a string, they do not change its type)', () => {
      const schema = typeSchema(loadFormSchemas()['password-change']!);
      expect(schema).to.deep.equal({
        type: 'object',
        additionalProperties: false,
        required: ['current', 'new'],
        properties: { current: { type: 'string' }, new: { type: 'string' } },
      });
    });
  });
});
