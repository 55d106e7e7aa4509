import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { expect } from 'chai';
import type { FormName } from '../../../src/common/api/forms.js';
import { chooseForm, formBody, mapAjvErrors, validateForm } from '../../../src/server/api/validation.js';
import { loadFormSchemas, PROJECT_ROOT, readJson, type JsonSchema } from '../../../src/configuration/load.js';

const valid = {
  corporationName: 'Acme',
  departments: 'Sales',
  personInCharge: 'Taro Yamada',
  phoneNumber: '03-1234-5678',
  email: 'taro@example.com',
  zipCode: '100-0001',
  address: 'Chiyoda, Tokyo',
  scaleOfEmployees: '300to499',
};

function error(keyword: string, instancePath: string, params: Record<string, unknown>, extra: Partial<ErrorObject> = {}): ErrorObject {
  return { keyword, instancePath, schemaPath: '#', params, ...extra } as ErrorObject;
}

describe('server/api/validation', () => {
  describe('mapAjvErrors', () => {
    it('maps required and minLength 1 to blank', () => {
      expect(mapAjvErrors([error('required', '', { missingProperty: 'zipCode' }), error('minLength', '/address', { limit: 1 })])).to.deep.equal([
        { field: 'zip_code', code: 'blank', meta: {} },
        { field: 'address', code: 'blank', meta: {} },
      ]);
    });

    it('maps maxLength to tooLong with the limit as length', () => {
      expect(mapAjvErrors([error('maxLength', '/corporationName', { limit: 100 })])).to.deep.equal([
        { field: 'corporation_name', code: 'tooLong', meta: { length: 100 } },
      ]);
    });

    it('maps pattern, format, enum, const, oneOf and type to invalid', () => {
      for (const keyword of ['pattern', 'format', 'enum', 'const', 'oneOf', 'type']) {
        expect(mapAjvErrors([error(keyword, '/email', {}, { data: 'x' })])).to.deep.equal([{ field: 'email', code: 'invalid', meta: {} }]);
      }
    });

    it('treats a null or empty value failing any rule as blank', () => {
      expect(mapAjvErrors([error('type', '/email', { type: 'string' }, { data: null })])[0]!.code).to.equal('blank');
      expect(mapAjvErrors([error('const', '/scaleOfEmployees', {}, { data: '' })])[0]!.code).to.equal('blank');
    });

    it('maps an ajv-errors message to invalid with its locale key', () => {
      const replaced = error('errorMessage', '/email', { errors: [error('pattern', '/email', {}, { data: 'nope' })] }, { message: 'validation.emailInvalid' });
      expect(mapAjvErrors([replaced])).to.deep.equal([{ field: 'email', code: 'invalid', meta: { messageKey: 'validation.emailInvalid' } }]);
    });

    it('joins nested paths with dots in snake_case', () => {
      expect(mapAjvErrors([error('required', '/users/3', { missingProperty: 'kanaFirstName' }), error('maxLength', '/billingContact/ccEmail', { limit: 100 })])).to.deep.equal([
        { field: 'users.3.kana_first_name', code: 'blank', meta: {} },
        { field: 'billing_contact.cc_email', code: 'tooLong', meta: { length: 100 } },
      ]);
    });

    it('leaves out errors on the whole object when fields failed', () => {
      const errors = [error('if', '', { failingKeyword: 'then' }), error('anyOf', '', {}), error('pattern', '/email', {}, { data: 'x' })];
      expect(mapAjvErrors(errors)).to.deep.equal([{ field: 'email', code: 'invalid', meta: {} }]);
      expect(mapAjvErrors([error('not', '', {}, { data: {} })])).to.deep.equal([{ field: '', code: 'invalid', meta: {} }]);
    });

    it('keeps one error per field, the most basic one', () => {
      const errors = [
        error('pattern', '/email', {}, { data: 'x'.repeat(101) }),
        error('maxLength', '/email', { limit: 100 }, { data: 'x'.repeat(101) }),
        error('pattern', '/phoneNumber', {}, { data: '' }),
        error('minLength', '/phoneNumber', { limit: 1 }, { data: '' }),
      ];
      expect(mapAjvErrors(errors)).to.deep.equal([
        { field: 'email', code: 'tooLong', meta: { length: 100 } },
        { field: 'phone_number', code: 'blank', meta: {} },
      ]);
    });
  });

  describe('validateForm with schemas/registration-request.json', () => {
    it('accepts a valid request and drops unknown keys', () => {
      const data: Record<string, unknown> = { ...valid, unknownKey: 'x' };
      expect(validateForm('registration-request', data)).to.equal(null);
      expect(data).not.to.have.property('unknownKey');
    });

    it('reports every failing field in the order of the form', () => {
      const errors = validateForm('registration-request', {
        corporationName: 'x'.repeat(101),
        departments: '',
        phoneNumber: '03-12a4',
        email: 'not-an-address',
        zipCode: '1',
        address: 'Tokyo',
        corporationUrl: 'ftp://example.com',
        scaleOfEmployees: '10to20',
      });
      expect(errors).to.deep.equal([
        { field: 'corporation_name', code: 'tooLong', meta: { length: 100 } },
        { field: 'departments', code: 'blank', meta: {} },
        { field: 'person_in_charge', code: 'blank', meta: {} },
        { field: 'phone_number', code: 'invalid', meta: {} },
        { field: 'email', code: 'invalid', meta: { messageKey: 'validation.emailInvalid' } },
        { field: 'zip_code', code: 'invalid', meta: {} },
        { field: 'corporation_url', code: 'invalid', meta: {} },
        { field: 'scale_of_employees', code: 'invalid', meta: {} },
      ]);
    });

    it('uses the limits of the schema files, not its own', () => {
      const common = readJson<JsonSchema>(path.join(PROJECT_ROOT, 'schemas', 'common.json'));
      const limit = (common.$defs!.phoneNumber as { maxLength: number }).maxLength;
      const errors = validateForm('registration-request', { ...valid, phoneNumber: '0'.repeat(16) });
      expect(errors).to.deep.equal([{ field: 'phone_number', code: 'tooLong', meta: { length: limit } }]);
    });

    it('accepts full-width postal codes and long-dash phone numbers', () => {
      expect(validateForm('registration-request', { ...valid, zipCode: '１００ー０００１', phoneNumber: '03ー1234ー5678' })).to.equal(null);
    });
  });

  describe('every form of schemas/', () => {
    it('compiles with the server validator', () => {
      for (const name of Object.keys(loadFormSchemas())) {
        expect(() => validateForm(name, {}), name).not.to.throw();
      }
    });

    it('reports a cross-field rule ($data) with its locale key', () => {
      expect(validateForm('password-change', { current: 'OldPassw0rd', new: 'OldPassw0rd' })).to.deep.equal([
        { field: 'new', code: 'invalid', meta: { messageKey: 'validation.newPasswordSame' } },
      ]);
      expect(validateForm('password-change', { current: 'OldPassw0rd', new: 'NewPassw0rd' })).to.equal(null);
    });
  });

  describe('formBody', () => {
    it('marks the body schema with its form name', () => {
      expect(formBody('registration-request')).to.deep.equal({ 'x-form': 'registration-request' });
      expect(() => formBody('no-such-form' as FormName)).to.throw(/no-such-form/);
    });

    it('marks a choice of forms with their names, in order', () => {
      expect(formBody('admin-name', 'affiliation-role')).to.deep.equal({ 'x-form': ['admin-name', 'affiliation-role'] });
      expect(() => formBody('admin-name', 'no-such-form' as FormName)).to.throw(/no-such-form/);
    });
  });

  describe('chooseForm', () => {
    const forms = ['admin-name', 'affiliation-role'];

    it('picks the first form whose fields the body carries', () => {
      expect(chooseForm(forms, { role: 'manager' })).to.deep.equal({ name: 'affiliation-role', foreign: [] });
      expect(chooseForm(forms, { lastName: '山田', firstName: '太郎' })).to.deep.equal({ name: 'admin-name', foreign: [] });
      expect(chooseForm(forms, { lastName: '山田', unknown: 1 })).to.deep.equal({ name: 'admin-name', foreign: [] });
    });

    it('falls back to the first form for a body with none of their fields', () => {
      expect(chooseForm(forms, {})).to.deep.equal({ name: 'admin-name', foreign: [] });
      expect(chooseForm([...forms].reverse(), { unknown: 1 })).to.deep.equal({ name: 'affiliation-role', foreign: [] });
    });

    it("names the keys of another form in a body that mixes them", () => {
      expect(chooseForm(forms, { role: 'manager', lastName: '山田' })).to.deep.equal({ name: 'admin-name', foreign: ['role'] });
    });
  });
});
