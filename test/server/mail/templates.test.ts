import { expect } from 'chai';
import { LANGUAGES } from '../../../src/common/languages.js';
import { MAIL_TEMPLATES, mailLanguage, renderMail, validityText } from '../../../src/server/mail/templates.js';

describe('Mail templates (locales/<lang>/mail.json)', () => {
  it('every template renders in ja and en with a subject, a text part and an HTML part', () => {
    for (const language of LANGUAGES) {
      for (const template of MAIL_TEMPLATES) {
        const mail = renderMail(template, language, { email: 'a@example.com', validFor: '1', summary: 's', personInCharge: 'p', id: '1', receivedAt: 'now', corporationName: 'c', organization: 'o', inviter: 'i', requestCode: 'A000000101', serviceGroup: 'g', services: 's', startsOn: '2027-01-04', changeDeadline: '2026-12-28', daysLeft: '2 business days left', userCount: '3', time: '2026/11/27 10:00', factor: 'A passkey', minutes: '15', validity: '30 minutes', connection: 'Okta', notAfter: '2026-12-18 09:00 UTC', fingerprint: 'AB:CD', sso: 's', url: 'https://hr.example.com/hooks' }, 'https://portal.example.com/x?a=1&b=2');
        expect(mail.subject, `${language} ${template}`).to.be.a('string').and.not.match(/\{\{/);
        expect(mail.text).not.to.match(/\{\{/);
        expect(mail.html).to.match(/^<!doctype html>/).and.contain(`<html lang="${language}">`);
      }
    }
  });

  it('leaves out an optional paragraph (only a placeholder) whose value is empty, in both parts', () => {
    const params = { email: 'a@example.com', organization: 'o', inviter: 'i', validFor: '1 hour' };
    const without = renderMail('invitation', 'en', { ...params, sso: '' }, 'https://portal.example.com/a');
    const withSso = renderMail('invitation', 'en', { ...params, sso: 'Sign in with single sign-on.' }, 'https://portal.example.com/a');
    expect(without.text).to.not.contain('{{sso}}').and.not.match(/\n\n\n/);
    expect(without.html).to.not.match(/<p>\s*<\/p>/);
    expect(withSso.text).to.contain('\n\nSign in with single sign-on.\n\n');
    expect(withSso.html).to.contain('<p>Sign in with single sign-on.</p>');
    expect(withSso.text.split('\n\n')).to.have.length(without.text.split('\n\n').length + 1);
  });

  it('puts the action link into both parts, escaped in HTML, and escapes values in HTML only', () => {
    const link = 'https://portal.example.com/password/reset?admin_id=1&token=abc&locale=en';
    const mail = renderMail('passwordReset', 'en', { email: '<b>x</b>@example.com', validFor: '1 hour' }, link);
    expect(mail.text).to.contain(`\n\n${link}\n\n`).and.contain('<b>x</b>@example.com');
    expect(mail.html).to.contain('<a href="https://portal.example.com/password/reset?admin_id=1&amp;token=abc&amp;locale=en">Choose a new password</a>');
    expect(mail.html).to.contain('&lt;b&gt;x&lt;/b&gt;@example.com').and.not.contain('<b>x</b>');
    expect(mail.text).to.contain('Replies to it are not read.');
  });

  it('chooses the language: requested, else the admin language, else ja', () => {
    expect(mailLanguage('en', 'ja-JP')).to.equal('en');
    expect(mailLanguage(undefined, 'en-US')).to.equal('en');
    expect(mailLanguage('fr', 'de-DE')).to.equal('ja');
    expect(mailLanguage(null, null)).to.equal('ja');
  });

  it('says how long a link works in the mail language', () => {
    expect(validityText('en', 72 * 3600)).to.equal('72 hours');
    expect(validityText('ja', 72 * 3600)).to.equal('72時間');
    expect(validityText('en', 3600)).to.equal('1 hour');
    expect(validityText('en', 1800)).to.equal('30 minutes');
    expect(validityText('en', 14 * 86400)).to.equal('14 days');
  });
});
