/**
 * Which addresses a customer's URL may name (issue 45: an IdP's issuer and metadata URLs, which the server fetches:
 * DESIGN §7 'Known traps', SSRF). Outside demo mode: https to a public address only; in demo mode also http, and
 * loopback addresses, where the tests and a newcomer's demo IdP listen.
 *
 * These are the checks of the URL as written (its scheme, an IP literal, names that are never public). A host name's
 * addresses are known only when it is resolved: the fetch resolves it, checks every address with `isPublicAddress`
 * and connects to the address it checked (no second lookup to rebind), following no redirect.
 */
import net from 'node:net';

/**
 * IANA's special-purpose ranges and the private ones: no public server is there. One list per family: Node's
 * BlockList checks an IPv4 address against IPv6 rules too (as IPv4-mapped), which would refuse every IPv4 address.
 */
const NOT_PUBLIC_V4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.31.196.0', 24], ['192.52.193.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['192.175.48.0', 24],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC_V4.addSubnet(address, prefix, 'ipv4');
// IPv4-compatible, -mapped, NAT64 and 6to4 forms are refused whole: they reach IPv4 addresses by another name
const NOT_PUBLIC_V6 = new net.BlockList();
for (const [address, prefix] of [
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC_V6.addSubnet(address, prefix, 'ipv6');

/** An IP address (without brackets) on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NOT_PUBLIC_V4.check(address, 'ipv4');
  return family === 6 && !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/** An IP address (without brackets) of this machine's loopback. */
export function isLoopbackAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return address.startsWith('127.');
  return family === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(address);
}

/** Names that never resolve to a public server (RFC 6761, 6762, 8375; ICANN's .internal). */
const NEVER_PUBLIC_NAME = /(^|\.)(localhost|local|internal|home\.arpa|invalid|test)$/;

/** What is wrong with a customer's URL: 'invalid', 'httpsRequired' or 'privateAddress'; undefined when it may be used. */
export type UrlProblem = 'invalid' | 'httpsRequired' | 'privateAddress';

export function customerUrlProblem(raw: string, options: { demo: boolean }): UrlProblem | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'invalid';
  if (url.username || url.password || url.hash) return 'invalid';
  // the WHATWG parser has made 0x7f.1 or 2130706433 the dotted address, and put IPv6 in brackets
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const loopback = isLoopbackAddress(host) || /(^|\.)localhost$/.test(host);
  if (options.demo && loopback) return undefined;
  if (url.protocol !== 'https:') return 'httpsRequired';
  if (net.isIP(host) !== 0) return isPublicAddress(host) ? undefined : 'privateAddress';
  return !host.includes('.') || NEVER_PUBLIC_NAME.test(host) ? 'privateAddress' : undefined;
}

/** The private ranges (RFC 1918, IPv6 unique local): an IdP on a company's own network, when a setting allows it. */
const PRIVATE_V4 = new net.BlockList();
for (const [address, prefix] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) PRIVATE_V4.addSubnet(address, prefix, 'ipv4');
const PRIVATE_V6 = new net.BlockList();
PRIVATE_V6.addSubnet('fc00::', 7, 'ipv6');

/** An IP address (without brackets) in the private ranges — not loopback, link-local or any other special range. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return PRIVATE_V4.check(address, 'ipv4');
  return family === 6 && PRIVATE_V6.check(address, 'ipv6');
}
