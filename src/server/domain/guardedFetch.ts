/**
 * Fetches a URL a customer chose (issue 45: an IdP's SAML metadata, its OpenID Connect discovery): a request to an
 * address the customer picks (DESIGN §7 'Known traps', SSRF). The host is resolved once, every address checked with
 * `isPublicAddress`, and the connection goes to the address checked — a second lookup could answer another one
 * (DNS rebinding). No redirect is followed (it could point anywhere), the answer has a time limit and a size cap.
 * `allowLoopback` (demo mode) lets the tests' and a newcomer's local IdPs be fetched over loopback; `allowPrivate`
 * (SSO_ALLOW_PRIVATE_ADDRESSES) an IdP on the company network, in the private ranges only (RFC 1918, IPv6 ULA).
 */
import dns from 'node:dns';
import net from 'node:net';
import { Agent, request } from 'undici';
import { customerUrlProblem, isLoopbackAddress, isPrivateAddress, isPublicAddress } from './publicAddresses.js';

export interface GuardedFetchOptions {
  /** Loopback addresses (and http to them) allowed: demo mode. */
  allowLoopback: boolean;
  /** The private ranges allowed (SSO_ALLOW_PRIVATE_ADDRESSES: an IdP on the company network); never loopback, link-local nor the rest. */
  allowPrivate?: boolean;
  /** The most bytes of the body read (default 1 MiB). */
  maxBytes?: number;
  /** The time limit of the whole request, ms (default 10 s). */
  timeoutMs?: number;
  /** Answers the host's addresses (default: the system's resolver); tests name their own. */
  lookup?: (hostname: string) => Promise<string[]>;
}

export type FetchRefusal = 'invalidUrl' | 'httpsRequired' | 'privateAddress' | 'unresolved' | 'redirect' | 'status' | 'tooLarge' | 'timeout' | 'network';

/** A refused or failed fetch, named by its reason (the connection's page says which). */
export class GuardedFetchError extends Error {
  constructor(readonly reason: FetchRefusal, detail?: string) {
    super(`fetch refused: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'GuardedFetchError';
  }
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

async function systemLookup(hostname: string): Promise<string[]> {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/** The one address to connect to: every address of the host must be allowed (one private among public ones is refused). */
async function checkedAddress(hostname: string, options: GuardedFetchOptions): Promise<string> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (net.isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(host);
    } catch (error) {
      throw new GuardedFetchError('unresolved', (error as Error).message);
    }
  }
  if (addresses.length === 0) throw new GuardedFetchError('unresolved');
  const allowed = (address: string) => isPublicAddress(address) || (options.allowLoopback && isLoopbackAddress(address)) || (options.allowPrivate === true && isPrivateAddress(address));
  if (!addresses.every(allowed)) throw new GuardedFetchError('privateAddress');
  return addresses[0]!;
}

/** The body of a 200 answer to GET `url`, as text; a GuardedFetchError otherwise. */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<string> {
  const answer = await guardedRequest(url, { ...options, accept: 'application/xml, application/json, text/xml, */*' });
  if (answer.status !== 200) throw new GuardedFetchError('status', String(answer.status));
  return answer.body;
}

export interface GuardedRequest extends GuardedFetchOptions {
  method?: 'GET' | 'POST';
  accept?: string;
  headers?: Record<string, string>;
  body?: string;
  /** A body over maxBytes is cut there (the webhook sender's receivers' answers) instead of refused. */
  truncate?: boolean;
}

/**
 * One request to a customer's URL under the same guard (issue 46: the webhook deliveries POST): any non-redirect
 * status is answered with the body read (at most maxBytes); a redirect, a refused address, a time-out are errors.
 */
export async function guardedRequest(url: string, options: GuardedRequest): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const problem = customerUrlProblem(url, { demo: options.allowLoopback });
  if (problem === 'invalid') throw new GuardedFetchError('invalidUrl');
  // a private host is judged by its resolved addresses below when the private ranges are allowed
  if (problem && !(problem === 'privateAddress' && options.allowPrivate)) throw new GuardedFetchError(problem);
  const target = new URL(url);
  const address = await checkedAddress(target.hostname, options);
  const family = net.isIP(address);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  // the connection goes to the checked address whatever the name resolves to now; TLS still checks the name
  const agent = new Agent({
    connect: { lookup: (_hostname, _options, callback) => callback(null, [{ address, family }]), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  const headers = { accept: options.accept ?? '*/*', ...options.headers };
  // undici's request follows no redirect (no redirect interceptor): a 3xx is refused below
  try {
    const answer = await request(target, { dispatcher: agent, method: options.method ?? 'GET', signal, headers, body: options.body }).catch((error: unknown) => {
      throw signal.aborted || isTimeout(error) ? new GuardedFetchError('timeout') : new GuardedFetchError('network', (error as Error).message);
    });
    if (answer.statusCode >= 300 && answer.statusCode < 400) {
      await answer.body.dump().catch(() => undefined);
      throw new GuardedFetchError('redirect');
    }
    const declared = Number(answer.headers['content-length']);
    if (!options.truncate && Number.isFinite(declared) && declared > maxBytes) {
      discard(answer.body);
      throw new GuardedFetchError('tooLarge');
    }
    const answerHeaders = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')]));
    return { status: answer.statusCode, headers: answerHeaders, body: await readCapped(answer.body, maxBytes, signal, options.truncate === true) };
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return /TIMEOUT/.test(code) || (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
}

/** Closes a body not read to its end (its stream's abort error is expected, not unhandled). */
function discard(body: { on(event: 'error', listener: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: AsyncIterable<Buffer> & Parameters<typeof discard>[0], maxBytes: number, signal: AbortSignal, truncate = false): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > maxBytes) {
        discard(body);
        if (!truncate) throw new GuardedFetchError('tooLarge');
        chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        break;
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof GuardedFetchError) throw error;
    throw signal.aborted || isTimeout(error) ? new GuardedFetchError('timeout') : new GuardedFetchError('network', (error as Error).message);
  }
  return Buffer.concat(chunks).toString('utf8');
}
