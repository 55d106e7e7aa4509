/**
 * The invitation mail and single sign-on (issue 45 §3): an admin invited at a verified domain of the organisation
 * whose connection is on is told to activate by signing in with single sign-on (no password to set); any other
 * invitee's mail has no such paragraph. On the demo data with its single-sign-on demo (G0000001 id 1, manager@ id 1).
 */
import { expect } from 'chai';
import { seedDemoSso } from '../../../src/server/db/seed/index.js';
import { demoSso } from '../../../src/server/db/seed/demoData.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const PUBLIC_URL = 'http://localhost:3000';

describe('The invitation mail of an admin at a single-sign-on domain (issue 45 §3)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL } });
  let manager: Record<string, string>;

  before(async () => {
    await seedDemoSso(ctx.db, `${PUBLIC_URL}/dev/idp`, ctx.config.secretKeys);
    manager = bearer(await accessToken(ctx.app, { sub: '1' }));
  });

  async function invitationTo(email: string, language: 'en' | 'ja'): Promise<OutboxMail> {
    const response = await ctx.app.inject({ method: 'POST', url: `/api/v2/organizations/1/affiliations?lang=${language}`, headers: manager, payload: { email } });
    expect(response.statusCode, response.body).to.equal(201);
    const mails = ((await ctx.app.inject({ url: '/dev/mails.json' })).json() as OutboxMail[]).filter((mail) => mail.to === email);
    expect(mails).to.have.length(1);
    return mails[0]!;
  }

  it('at sso.example.com (verified, routed to the connection that is on): the mail says to sign in with single sign-on, no password to set, in English and Japanese', async () => {
    const en = await invitationTo('new-en@sso.example.com', 'en');
    expect(en.text).to.contain("Continue with single sign-on").and.contain('no password to set').and.contain(PUBLIC_URL);
    expect(en.html).to.contain('Continue with single sign-on');
    const ja = await invitationTo('new-ja@sso.example.com', 'ja');
    expect(ja.text).to.contain('シングルサインオンで続ける').and.contain('パスワードの設定は不要');
  });

  it('at another domain, or once the connection is paused: no such paragraph', async () => {
    const other = await invitationTo('new@elsewhere.example.com', 'en');
    expect(other.text).to.not.contain('single sign-on');
    await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('id', '=', demoSso.connectionId).execute();
    try {
      const paused = await invitationTo('paused@sso.example.com', 'en');
      expect(paused.text).to.not.contain('single sign-on');
      expect(paused.html).to.not.match(/<p>\s*<\/p>/);
    } finally {
      await ctx.db.updateTable('ssoConnections').set({ state: 'on' }).where('id', '=', demoSso.connectionId).execute();
    }
  });
});
