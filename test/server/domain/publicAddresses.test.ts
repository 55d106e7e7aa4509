/** Which addresses a customer's IdP URL may name (issue 45; DESIGN §7 SSRF): public ones over https; demo mode adds http and loopback. */
import { expect } from 'chai';
import { customerUrlProblem, isLoopbackAddress, isPrivateAddress, isPublicAddress } from '../../../src/server/domain/publicAddresses.js';

describe('Public addresses of IdP URLs (issue 45)', () => {
  it('tells public addresses from private, loopback, link-local, shared, documentation, multicast and IPv4-in-IPv6 ones', () => {
    for (const address of ['8.8.8.8', '133.242.0.1', '2606:4700:4700::1111', '2400:cb00::1']) expect(isPublicAddress(address), address).to.equal(true);
    for (const address of [
      '0.0.0.0', '10.0.0.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '172.16.0.1', '172.31.255.255', '192.0.2.1', '192.168.1.1', '198.18.0.1',
      '224.0.0.1', '255.255.255.255', '::', '::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:db8::1', 'fc00::1', 'fd12::1', 'fe80::1', 'ff02::1',
      'example.com', '',
    ]) {
      expect(isPublicAddress(address), address).to.equal(false);
    }
    expect(isLoopbackAddress('127.8.9.10')).to.equal(true);
    expect(isLoopbackAddress('::1')).to.equal(true);
    expect(isLoopbackAddress('10.0.0.1')).to.equal(false);
  });

  it('outside demo mode takes https to a public host only, however an address is written', () => {
    const problem = (url: string) => customerUrlProblem(url, { demo: false });
    expect(problem('https://login.microsoftonline.com/tenant/v2.0')).to.equal(undefined);
    expect(problem('https://8.8.8.8/metadata')).to.equal(undefined);
    const refused: Record<string, string> = {
      'http://login.example.com': 'httpsRequired',
      'http://127.0.0.1': 'httpsRequired',
      'https://127.0.0.1': 'privateAddress',
      'https://2130706433': 'privateAddress',
      'https://0177.0.0.1': 'privateAddress',
      'https://[::ffff:127.0.0.1]': 'privateAddress',
      'https://localhost': 'privateAddress',
      'https://idp.localhost': 'privateAddress',
      'https://printer.local': 'privateAddress',
      'https://sso': 'privateAddress',
      'https://login.example.com.': undefined as unknown as string,
      'not a url': 'invalid',
      'javascript:alert(1)': 'invalid',
      'https://a:b@login.example.com': 'invalid',
      'https://login.example.com/#fragment': 'invalid',
    };
    for (const [url, expected] of Object.entries(refused)) expect(problem(url), url).to.equal(expected);
  });

  it('in demo mode also takes http and https on loopback, and still refuses other private addresses and plain http elsewhere', () => {
    const problem = (url: string) => customerUrlProblem(url, { demo: true });
    for (const url of ['http://127.0.0.1:4000/oidc', 'http://localhost:8080', 'https://[::1]:8443', 'http://idp.localhost:3000']) expect(problem(url), url).to.equal(undefined);
    expect(problem('http://10.0.0.5')).to.equal('httpsRequired');
    expect(problem('https://10.0.0.5')).to.equal('privateAddress');
    expect(problem('http://login.example.com')).to.equal('httpsRequired');
  });

  it('tells the private ranges (RFC 1918, IPv6 ULA) from loopback, link-local, shared and public addresses', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', 'fc00::1', 'fd12::1']) expect(isPrivateAddress(address), address).to.equal(true);
    for (const address of ['127.0.0.1', '169.254.169.254', '100.64.0.1', '172.32.0.1', '8.8.8.8', '::1', 'fe80::1', '::ffff:10.0.0.1', 'example.com']) {
      expect(isPrivateAddress(address), address).to.equal(false);
    }
  });
});
