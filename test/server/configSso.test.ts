/** The settings of single sign-on with the customer's own IdP (issue 45): DNS_SERVERS and SSO_FREE_MAIL_DOMAINS. */
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { DEFAULT_FREE_MAIL_DOMAINS } from '../../src/server/domain/freeMailDomains.js';
import { DEFAULT_MFA_CONTEXTS } from '../../src/server/saml/authnContexts.js';
import { TEST_SECRET_KEY } from './support/testApp.js';

const BASE = { PUBLIC_URL: 'https://portal.example.com', SECRET_KEY: TEST_SECRET_KEY };

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ ...BASE, ...env });
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('Configuration of single sign-on (issue 45)', () => {
  it("asks the system's resolvers and refuses the default free-mail domains when nothing is set", () => {
    const { sso } = loadConfig(BASE);
    expect(sso.dnsServers).to.equal(undefined);
    expect(sso.freeMailDomains).to.equal(DEFAULT_FREE_MAIL_DOMAINS);
    expect(sso.freeMailDomains).to.include.members(['gmail.com', 'yahoo.co.jp', 'outlook.com', 'hotmail.com', 'icloud.com', 'yahoo.com', 'docomo.ne.jp', 'ezweb.ne.jp', 'softbank.ne.jp']);
  });

  it('reads DNS_SERVERS as IP addresses with optional ports (IPv6 in brackets) and SSO_FREE_MAIL_DOMAINS as a list replacing the default', () => {
    const { sso } = loadConfig({ ...BASE, DNS_SERVERS: '192.0.2.53, 127.0.0.1:5353,[2001:db8::53]:53, 2001:db8::1', SSO_FREE_MAIL_DOMAINS: 'Mail.Example.JP, free.example' });
    expect(sso.dnsServers).to.deep.equal(['192.0.2.53', '127.0.0.1:5353', '[2001:db8::53]:53', '2001:db8::1']);
    expect(sso.freeMailDomains).to.deep.equal(['mail.example.jp', 'free.example']);
  });

  it('refuses a DNS server that is a name, a bad port or no address, and a free-mail entry that is no domain', () => {
    for (const servers of ['dns.example.com', '127.0.0.1:0', '127.0.0.1:70000', '[::1]:x', '127.0.0.1,', '::1:53:']) {
      expect(problemsOf({ DNS_SERVERS: servers }), servers).to.have.length(1).and.satisfy((problems: string[]) => problems[0]!.startsWith('DNS_SERVERS'));
    }
    expect(problemsOf({ SSO_FREE_MAIL_DOMAINS: 'gmail.com, not a domain' })[0]).to.match(/^SSO_FREE_MAIL_DOMAINS/);
  });

  it('takes the default multi-factor AuthnContextClassRefs and no private address unless SSO_MFA_CONTEXTS and SSO_ALLOW_PRIVATE_ADDRESSES say otherwise', () => {
    const defaults = loadConfig(BASE).sso;
    expect(defaults.mfaContexts).to.equal(DEFAULT_MFA_CONTEXTS);
    expect(defaults.allowPrivateAddresses).to.equal(false);
    const set = loadConfig({ ...BASE, SSO_MFA_CONTEXTS: 'urn:example:mfa, https://refeds.org/profile/mfa', SSO_ALLOW_PRIVATE_ADDRESSES: 'on' }).sso;
    expect(set.mfaContexts).to.deep.equal(['urn:example:mfa', 'https://refeds.org/profile/mfa']);
    expect(set.allowPrivateAddresses).to.equal(true);
    expect(problemsOf({ SSO_MFA_CONTEXTS: 'not a uri' })[0]).to.match(/^SSO_MFA_CONTEXTS/);
    expect(problemsOf({ SSO_MFA_CONTEXTS: ' , ' })[0]).to.match(/^SSO_MFA_CONTEXTS/);
    expect(problemsOf({ SSO_ALLOW_PRIVATE_ADDRESSES: 'yes' })[0]).to.match(/^SSO_ALLOW_PRIVATE_ADDRESSES/);
  });
});
