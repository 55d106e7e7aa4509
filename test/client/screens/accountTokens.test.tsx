import 'global-jsdom/register';
import { expect } from 'chai';
import { namesOf } from '../../../src/client/screens/Activate.js';
import { initialEmail } from '../../../src/client/screens/ActivationStart.js';
import { resetLinkParams } from '../../../src/client/screens/PasswordReset.js';
import { chooseLanguage } from '../../../src/client/engine/i18n.js';

describe('Activation and reset pages (SPEC 2.4, 2.5): what their code reads from the link', () => {
  it('Register Account: the e-mail from ?email=', () => {
    expect(initialEmail('?email=pending%40example.com&locale=en')).to.deep.equal({ email: 'pending@example.com' });
    expect(initialEmail('')).to.deep.equal({});
  });

  it('Set new password: admin_id and token from the query, a literal "amp;" removed', () => {
    expect(resetLinkParams('?admin_id=5&token=abc_DEF-1&locale=en')).to.deep.equal({ adminId: '5', token: 'abc_DEF-1' });
    expect(resetLinkParams('?admin_id=5&amp;token=abc&amp;locale=en')).to.deep.equal({ adminId: '5', token: 'abc' });
    expect(resetLinkParams('?admin_id=x&token=')).to.deep.equal({ adminId: undefined, token: undefined });
  });

  it('the locale parameter of a mailed link counts also behind a literal "amp;" (SPEC 2.2, 2.5)', () => {
    expect(chooseLanguage('?admin_id=5&amp;token=abc&amp;locale=en', 'ja')).to.equal('en');
    expect(chooseLanguage('?locale=en', null)).to.equal('en');
  });

  it('Activate: the names an invitation already holds start the form', () => {
    expect(namesOf({ id: 1, email: 'a@example.com', lastName: '田中', firstName: '', kanaLastName: 'たなか' })).to.deep.equal({ lastName: '田中', kanaLastName: 'たなか' });
  });
});
