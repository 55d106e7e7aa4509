import { expect } from 'chai';
import { formatPersonName, nameFieldOrder } from '../../src/common/personName.js';

const taro = { firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ' };

describe("personName: one rule for people's names (issue 18)", () => {
  const table: Array<[string, Parameters<typeof formatPersonName>, string]> = [
    ['Japanese: family name first', [taro, 'ja'], '山田 太郎'],
    ['English: given name first', [taro, 'en'], '太郎 山田'],
    ['Japanese with kana, full-width brackets', [taro, 'ja', { kana: true }], '山田 太郎（やまだ たろう）'],
    ['English with kana', [taro, 'en', { kana: true }], '太郎 山田 (たろう やまだ)'],
    ['kana alone', [taro, 'en', { kanaOnly: true }], 'たろう やまだ'],
    ['the honorific in Japanese (SPEC 2.13)', [taro, 'ja', { honorific: true }], '山田 太郎 様'],
    ['no honorific in English', [taro, 'en', { honorific: true }], '太郎 山田'],
    ['no kana: no empty brackets', [{ firstName: 'Taro', lastName: 'Yamada' }, 'ja', { kana: true }], 'Yamada Taro'],
    ['only a family name', [{ lastName: '山田', firstName: '' }, 'en'], '山田'],
    ['no name at all', [{}, 'ja', { honorific: true }], ''],
    ['no person', [undefined, 'ja'], ''],
  ];
  for (const [rule, args, shown] of table) it(`${rule}: '${shown}'`, () => expect(formatPersonName(...args)).to.equal(shown));

  it("puts a form's name fields in the language's order, each pair in the places it had", () => {
    const fields = ['email', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'password'];
    expect(nameFieldOrder(fields, 'en')).to.deep.equal(['email', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'password']);
    expect(nameFieldOrder(nameFieldOrder(fields, 'en'), 'ja')).to.deep.equal(fields);
    expect(nameFieldOrder(['firstName', 'email'], 'ja')).to.deep.equal(['firstName', 'email']);
  });
});
