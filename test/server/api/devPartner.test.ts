/**
 * The demo partner at /dev/partner (issue 9 §4, demo mode): it verifies the single-sign-on tokens like a real partner
 * (signature, expiry, one-time use through the verify call) and shows who arrived or why it refused them.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

describe('The demo partner (/dev/partner)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });

  /** The partner URL the browser would open: authUrl with the tokens and goi. */
  async function partnerUrl(query: string): Promise<URL> {
    const response = await ctx.app.inject({ url: `/api/v2/admin/single-sign-on?${query}`, headers: bearer(await accessToken(ctx.app, { sub: '1' })) });
    expect(response.statusCode, response.body).to.equal(200);
    const answer = response.json() as Record<string, string>;
    const url = new URL(answer.auth_url!);
    for (const field of ['guq', 'gss', 'gui', 'gsg', 'ghs', 'gul']) url.searchParams.set(field, answer[field]!);
    url.searchParams.set('goi', 'G0000001');
    return url;
  }

  const open = (url: URL) => ctx.app.inject({ url: `${url.pathname}${url.search}` });
  const reason = (html: string) => /data-reason="([^"]*)"/.exec(html)?.[1];

  it('shows who arrived: gloplaId, e-mail, language and the state it got back', async () => {
    const response = await open(await partnerUrl('gpc=demo-partner&gss=xyz&gul=en'));
    expect(response.statusCode).to.equal(200);
    expect(response.headers['content-type']).to.match(/^text\/html/);
    expect(response.body).to.include('Demo partner: signed in');
    for (const shown of ['<dd>G0000001</dd>', '<dd>manager@example.com</dd>', '<dd>en</dd>', '<dd>xyz</dd>']) expect(response.body).to.include(shown);
    expect(response.body).to.not.match(/<script|style=/);
  });

  it('refuses the same tokens a second time (replayed)', async () => {
    const url = await partnerUrl('gpc=demo-partner&gss=again');
    expect((await open(url)).statusCode).to.equal(200);
    const replay = await open(url);
    expect(replay.statusCode).to.equal(403);
    expect(reason(replay.body)).to.equal('replayed');
  });

  it('refuses a changed field (bad signature) and tokens without their fields', async () => {
    const url = await partnerUrl('gpc=demo-partner&gss=mine');
    url.searchParams.set('gss', 'theirs');
    expect(reason((await open(url)).body)).to.equal('bad_signature');
    expect(reason((await ctx.app.inject({ url: '/dev/partner' })).body)).to.equal('missing');
  });

  it('refuses tokens 60 seconds after issue (expired)', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    try {
      const url = await partnerUrl('gpc=demo-partner');
      clock.tick(60_000);
      expect(reason((await open(url)).body)).to.equal('expired');
    } finally {
      clock.restore();
    }
  });
});
