import 'global-jsdom/register';
import { expect } from 'chai';
import type { ReactElement } from 'react';
import { cleanup, render } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { namesOf } from '../../../src/client/screens/Activate.js';
import { initialEmail } from '../../../src/client/screens/ActivationStart.js';
import { resetLinkParams } from '../../../src/client/screens/PasswordReset.js';
import TokenExpired from '../../../src/client/screens/TokenExpired.js';
import TokenSent from '../../../src/client/screens/TokenSent.js';
import { chooseLanguage } from '../../../src/client/engine/i18n.js';
import { loadLocales } from '../../../src/configuration/load.js';

async function english() {
  const instance = i18next.createInstance();
  const locales = loadLocales();
  await instance.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: locales.en } },
    interpolation: { escapeValue: false },
  });
  return instance;
}

describe('Activation and reset pages (SPEC 2.4, 2.5)', () => {
  let i18n: Awaited<ReturnType<typeof english>>;
  before(async () => {
    i18n = await english();
  });
  afterEach(cleanup);

  const at = (element: ReactElement, pathname: string, state?: unknown) =>
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[{ pathname, state }]}>{element}</MemoryRouter>
      </I18nextProvider>,
    );

  describe('/token/expired', () => {
    it('activation texts and the restart link to /activation/start by default', () => {
      const view = at(<TokenExpired />, '/token/expired', { errorCode: 'token_expired' });
      view.getByText('This activation link has expired or has already been used.');
      expect(view.getByRole('link', { name: 'Request a new activation mail' }).getAttribute('href')).to.equal('/activation/start');
    });

    it('reset texts for flow passwordReset; the restart link to /password/reset/start for from passwordReset', () => {
      const view = at(<TokenExpired />, '/token/expired', { flow: 'passwordReset', from: 'passwordReset', errorCode: 'token_used' });
      view.getByText('This password-reset link has expired or has already been used.');
      expect(view.getByRole('link', { name: 'Request a new password-reset mail' }).getAttribute('href')).to.equal('/password/reset/start');
    });

    it('no restart link for already_activated (sign in instead)', () => {
      const view = at(<TokenExpired />, '/token/expired', { errorCode: 'already_activated' });
      expect(view.queryByRole('link', { name: /Request a new/ })).to.equal(null);
      view.getByText(/already been activated/);
      expect(view.getByRole('link', { name: 'Sign in' }).getAttribute('href')).to.equal('/signin');
    });

    it('without navigation state: the activation texts', () => {
      const view = at(<TokenExpired />, '/token/expired');
      view.getByRole('link', { name: 'Request a new activation mail' });
    });
  });

  describe('/token/sent', () => {
    it('the texts of the flow in navigation state', () => {
      at(<TokenSent />, '/token/sent', { flow: 'activation' }).getByText(/mail with an activation link/);
      cleanup();
      at(<TokenSent />, '/token/sent', { flow: 'passwordReset' }).getByText(/link to reset the password/);
    });
  });

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
