import { expect } from 'chai';
import { loadFormModule } from '../../../../src/client/engine/forms/formModule.js';
import { generate } from '../../../../scripts/generate.js';

async function errorsOf(schemaName: string, data: Record<string, unknown>): Promise<string[]> {
  const { schema, validator } = await loadFormModule(schemaName);
  const { errors } = validator.validateFormData(data, schema);
  return errors.map((error) => `${error.property ?? ''} ${error.name}${error.name === 'errorMessage' ? ` ${error.message}` : ''}`.trim());
}

describe('schemas: admin-name and password-change, with the precompiled validators the browser uses', () => {
  before(() => generate());

  describe('admin-name (SPEC §5 Admin name)', () => {
    const valid = { firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ' };

    it('accepts kanji, kana, katakana and Latin names with phonetic kana', async () => {
      expect(await errorsOf('admin-name', valid)).to.deep.equal([]);
      expect(await errorsOf('admin-name', { firstName: 'Taro', lastName: 'ヤマダ', kanaFirstName: 'taro', kanaLastName: 'やまだ　ー' })).to.deep.equal([]);
    });

    it('requires all four fields', async () => {
      expect(await errorsOf('admin-name', {})).to.have.members(['lastName required', 'firstName required', 'kanaLastName required', 'kanaFirstName required']);
    });

    it('refuses katakana or kanji in the phonetic fields, and symbols in names', async () => {
      expect(await errorsOf('admin-name', { ...valid, kanaFirstName: 'タロウ' })).to.deep.equal(['.kanaFirstName pattern']);
      expect(await errorsOf('admin-name', { ...valid, kanaLastName: '山田' })).to.deep.equal(['.kanaLastName pattern']);
      expect(await errorsOf('admin-name', { ...valid, firstName: 'Taro<script>' })).to.deep.equal(['.firstName pattern']);
    });

    it('refuses names longer than the maximum (50)', async () => {
      expect(await errorsOf('admin-name', { ...valid, lastName: '山'.repeat(51) })).to.deep.equal(['.lastName maxLength']);
      expect(await errorsOf('admin-name', { ...valid, lastName: '山'.repeat(50) })).to.deep.equal([]);
    });
  });

  describe('password-change (SPEC §5 Password)', () => {
    it('accepts a current password and a different new one that meets the policy', async () => {
      expect(await errorsOf('password-change', { current: 'DemoPassw0rd!', new: 'NewPassw0rd!2' })).to.deep.equal([]);
    });

    it('requires both', async () => {
      expect(await errorsOf('password-change', {})).to.have.members(['current required', 'new required']);
    });

    it('the new password must follow the policy (its own message)', async () => {
      expect(await errorsOf('password-change', { current: 'x', new: 'weakpassword' })).to.deep.equal([
        '.new errorMessage validation.passwordPolicy',
      ]);
    });

    it('the new password must differ from the current one (its own message; no "if" noise)', async () => {
      expect(await errorsOf('password-change', { current: 'DemoPassw0rd!', new: 'DemoPassw0rd!' })).to.include('.new errorMessage validation.newPasswordSame');
    });

    it('the difference rule is quiet while the current password is empty', async () => {
      expect(await errorsOf('password-change', { new: 'NewPassw0rd!2' })).to.deep.equal(['current required']);
    });
  });
});
