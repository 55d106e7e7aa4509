import { expect } from 'chai';
import { confirmedFields } from '../../../../src/client/engine/forms/ConfirmView.js';

describe('engine/forms: the confirm view', () => {
  it('lists the fields in ui:order, leaving out hidden fields and the captcha (issue 7 finding 8)', () => {
    const schema = { type: 'object' as const, properties: { email: {}, name: {}, capyChallengekey: {}, capyAnswer: {} } };
    const uiSchema = {
      'ui:order': ['name', 'email', 'capyAnswer', 'capyChallengekey'],
      capyChallengekey: { 'ui:widget': 'hidden' },
      capyAnswer: { 'ui:widget': 'Captcha' },
    };
    expect(confirmedFields(schema, uiSchema)).to.deep.equal(['name', 'email']);
    expect(confirmedFields(schema)).to.deep.equal(['email', 'name', 'capyChallengekey', 'capyAnswer']);
  });
});
