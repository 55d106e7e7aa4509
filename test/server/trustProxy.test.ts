import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { useTestApp } from './support/testApp.js';

describe('TRUST_PROXY (issue 7 finding 6)', () => {
  it('takes false, a hop count, or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).to.equal(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.equal(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8, ::1' }).trustProxy).to.deep.equal(['10.0.0.1', '192.168.0.0/16', 'fd00::/8', '::1']);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy).to.deep.equal(['loopback']);
  });

  it('refuses malformed addresses and prefixes', () => {
    for (const value of ['10.0.0.300', '10.0.0.0/33', 'fd00::/129', 'proxy.example.com', '1.2.3.4,', 'yes']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value).to.throw(ConfigError, /TRUST_PROXY/);
    }
  });

  it('refuses true (any client could claim any address and host) in production', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true', NODE_ENV: 'production' })).to.throw(ConfigError, /TRUST_PROXY=true/);
  });

  describe('the identity provider behind a listed proxy', () => {
    const ctx = useTestApp({ env: { TRUST_PROXY: '10.0.0.1', PUBLIC_URL: 'https://portal.example.com' } });
    const discovery = (remoteAddress: string) =>
      ctx.app.inject({
        url: '/oidc/.well-known/openid-configuration',
        remoteAddress,
        headers: { host: 'portal.internal', 'x-forwarded-host': 'evil.example, portal.example.com', 'x-forwarded-proto': 'https' },
      });

    it('ignores forwarded headers from a client that is not the proxy', async () => {
      const response = await discovery('203.0.113.5');
      expect(response.statusCode).to.equal(200);
      expect(response.body).not.to.include('evil.example');
      // the host is the request's own; the scheme follows PUBLIC_URL (https), not the forwarded header
      expect(response.json().authorization_endpoint).to.equal('https://portal.internal/oidc/auth');
    });

    it("follows the proxy's own (last) forwarded host and protocol", async () => {
      const response = await discovery('10.0.0.1');
      expect(response.json().authorization_endpoint).to.equal('https://portal.example.com/oidc/auth');
    });
  });
});
