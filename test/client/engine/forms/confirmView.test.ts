import { expect } from 'chai';
import { confirmedFields } from '../../../../src/client/engine/forms/ConfirmView.js';
import { withFieldOrder } from '../../../../src/client/engine/forms/fieldOrder.js';

describe('engine/forms: the confirm view', () => {
  it('lists the fields in ui:order, leaving out hidden fields and the captcha (issue 7 finding 8)', () => {
    const schema = { type: 'object' as const, properties: { email: {}, name: {}, capyChallengekey: {}, capyAnswer: {} } };
    const uiSchema = {
      'ui:order': ['name', 'email', 'capyAnswer', 'capyChallengekey'],
      capyChallengekey: { 'ui:widget': 'hidden' },
      capyAnswer: { 'ui:widget': 'Captcha' },
    };
    expect(confirmedFields(schema, uiSchema, 'ja')).to.deep.equal(['name', 'email']);
    expect(confirmedFields(schema, undefined, 'ja')).to.deep.equal(['email', 'name', 'capyChallengekey', 'capyAnswer']);
  });

  it("lists a person's name fields in the page language's order: Last name first in Japanese, First name first in English", () => {
    const schema = { type: 'object' as const, properties: { lastName: {}, firstName: {}, kanaLastName: {}, kanaFirstName: {}, password: {} } };
    expect(confirmedFields(schema, undefined, 'ja')).to.deep.equal(['lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'password']);
    expect(confirmedFields(schema, undefined, 'en')).to.deep.equal(['firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'password']);
    expect(confirmedFields(schema, { 'ui:order': ['password', 'firstName', 'lastName'] }, 'ja')).to.deep.equal(['password', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName']);
    // the form itself (RJSF follows ui:order), the uiSchema untouched where nothing moves
    const uiSchema = { lastName: { 'ui:autocomplete': 'family-name' } };
    expect(withFieldOrder(schema, uiSchema, 'en')).to.deep.equal({ ...uiSchema, 'ui:order': ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'password'] });
    expect(withFieldOrder(schema, uiSchema, 'ja')).to.equal(uiSchema);
  });
});
