import { expect } from 'chai';
import { redactUrlForLog, reportedLocation } from '../../src/common/logRedaction.js';
import { capturingLogger } from './support/log.js';
import { useTestApp } from './support/testApp.js';

const TOKEN = 'Qm9ndXNUb2tlbkJvZ3VzVG9rZW5Cb2d1c1Rva2VuMDEy';

describe('tokens stay out of the log (issue 7 finding 4)', () => {
  describe('redactUrlForLog', () => {
    it('hides the token segment of activation links and long token-like segments', () => {
      expect(redactUrlForLog(`/admins/12/activate/${TOKEN}`)).to.equal('/admins/12/activate/[redacted]');
      expect(redactUrlForLog(`/admins/12/activate/short`)).to.equal('/admins/12/activate/[redacted]');
      expect(redactUrlForLog(`/oidc/interaction/${TOKEN}/login`)).to.equal('/oidc/interaction/[redacted]/login');
      expect(redactUrlForLog('/api/v2/admins/12/password')).to.equal('/api/v2/admins/12/password');
    });

    it('hides query values other than a few harmless ones, keeps their names, drops the hash', () => {
      expect(redactUrlForLog(`/password/reset?admin_id=3&token=${TOKEN}&locale=en#x`)).to.equal('/password/reset?admin_id=[redacted]&token=[redacted]&locale=en');
      expect(redactUrlForLog('/auth/openid/callback?code=abc&state=def')).to.equal('/auth/openid/callback?code=[redacted]&state=[redacted]');
      expect(redactUrlForLog('/api/v2/notices?lang=ja')).to.equal('/api/v2/notices?lang=ja');
    });
  });

  it('reportedLocation keeps origin and path only, token segments hidden', () => {
    expect(reportedLocation(`https://portal.example.com/admins/1/activate/${TOKEN}?locale=ja#top`)).to.equal('https://portal.example.com/admins/1/activate/[redacted]');
    expect(reportedLocation('https://portal.example.com/password/reset?token=abc')).to.equal('https://portal.example.com/password/reset');
    expect(reportedLocation('not a url?token=abc')).to.equal('not a url');
  });

  describe('request log', () => {
    const log = capturingLogger();
    const ctx = useTestApp({ logger: log.logger });
    const logged = () => JSON.stringify(log.lines);

    beforeEach(() => {
      log.lines.length = 0;
    });

    it('logs request URLs with token segments and query values hidden', async () => {
      await ctx.app.inject({ url: `/admins/5/activate/${TOKEN}`, headers: { accept: 'text/html' } });
      await ctx.app.inject({ url: `/password/reset?admin_id=5&token=${TOKEN}`, headers: { accept: 'text/html' } });
      await ctx.app.inject({ url: '/auth/openid/callback?code=SECRETCODE123&state=STATE456', headers: { accept: 'text/html' } });
      await ctx.app.inject({ url: '/oidc/auth?client_id=x&code=SECRETCODE123' });
      const urls = log.lines.filter((line) => line.req).map((line) => (line.req as { url: string }).url);
      expect(urls).to.include('/admins/5/activate/[redacted]');
      expect(urls).to.include('/password/reset?admin_id=[redacted]&token=[redacted]');
      expect(logged()).not.to.include(TOKEN);
      expect(logged()).not.to.include('SECRETCODE123');
      expect(logged()).not.to.include('STATE456');
    });

    it('never logs the token headers', async () => {
      await ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': `Bearer ${TOKEN}` } });
      await ctx.app.inject({ url: '/api/v2/admin/validate_reset_password_token', headers: { 'x-v2-admin-reset-password-token': `Bearer ${TOKEN}` } });
      expect(log.lines.length).to.be.greaterThan(0);
      expect(logged()).not.to.include(TOKEN);
    });

    it('logs client error reports without the query and hash of their location', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/client_errors',
        payload: { message: 'boom', context: { location: `https://portal.example.com/admins/1/activate/${TOKEN}?token=${TOKEN}#h`, url: `/password/reset?token=${TOKEN}` } },
      });
      expect(response.statusCode).to.equal(204);
      const report = log.lines.find((line) => line.msg === 'client error report') as { clientError: { context: Record<string, string> } };
      expect(report.clientError.context.location).to.equal('https://portal.example.com/admins/1/activate/[redacted]');
      expect(report.clientError.context.url).to.equal('/password/reset');
      expect(logged()).not.to.include(TOKEN);
    });

    it("logs the sign-in callback's report (SPEC §8: code, state, stored state and nonce) without the code, state or nonce", async () => {
      const report = async (context: Record<string, unknown>) => {
        log.lines.length = 0;
        const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/client_errors', payload: { message: 'Sign-in callback failed: state mismatch', context } });
        expect(response.statusCode).to.equal(204);
        return (log.lines.find((line) => line.msg === 'client error report') as { clientError: { context: Record<string, unknown> } }).clientError.context;
      };
      const time = '2026-01-01T00:00:00.000Z';
      expect(await report({ code: 'SECRETCODE123', state: 'STATE456', stored_state: 'OTHER789', stored_nonce: 'NONCE000', time })).to.deep.equal({
        code: '[redacted]',
        state: '[redacted]',
        storedState: '[redacted]',
        storedNonce: '[redacted]',
        stateMatches: false,
        time,
      });
      expect(await report({ code: null, state: 'STATE456', stored_state: 'STATE456', stored_nonce: null, time })).to.deep.include({ code: null, storedNonce: null, stateMatches: true });
      expect(logged()).not.to.include('SECRETCODE123').and.not.include('STATE456').and.not.include('NONCE000');
    });

    it('logs client error reports without secrets in their context, however deep', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/client_errors',
        payload: { message: 'refresh failed', context: { code: 'invalid_grant', body: { access_token: TOKEN, nested: [{ refresh_token: TOKEN, password: TOKEN, next: `/x?token=${TOKEN}` }] } } },
      });
      expect(response.statusCode).to.equal(204);
      const report = log.lines.find((line) => line.msg === 'client error report') as { clientError: { context: Record<string, unknown> } };
      expect(report.clientError.context).to.deep.equal({
        code: 'invalid_grant',
        body: { accessToken: '[redacted]', nested: [{ refreshToken: '[redacted]', password: '[redacted]', next: '/x' }] },
      });
      expect(logged()).not.to.include(TOKEN);
    });
  });
});
