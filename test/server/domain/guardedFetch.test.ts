/** The fetch of a customer's URL (issue 45; DESIGN §7 SSRF): checked addresses only, no redirect, a time limit, a size cap. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { guardedFetch, GuardedFetchError, type FetchRefusal } from '../../../src/server/domain/guardedFetch.js';

async function refusal(promise: Promise<unknown>): Promise<FetchRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GuardedFetchError) return error.reason;
    throw error;
  }
  throw new Error('the fetch was not refused');
}

describe('Guarded fetch of a customer URL (issue 45)', () => {
  let server: http.Server;
  let base: string;
  const hung: http.ServerResponse[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/metadata') res.end('<EntityDescriptor/>');
      else if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else if (req.url === '/large') res.end('x'.repeat(2048));
      else if (req.url === '/large-chunked') {
        res.write('x'.repeat(1500));
        res.end('x'.repeat(1500));
      } else if (req.url === '/slow') hung.push(res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const res of hung) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a loopback URL where loopback is allowed (demo mode)', async () => {
    expect(await guardedFetch(`${base}/metadata`, { allowLoopback: true })).to.equal('<EntityDescriptor/>');
  });

  it('refuses loopback outside the allowance, written as an address or behind a public-looking name', async () => {
    expect(await refusal(guardedFetch(`${base}/metadata`, { allowLoopback: false }))).to.equal('httpsRequired');
    expect(await refusal(guardedFetch('https://127.0.0.1/metadata', { allowLoopback: false }))).to.equal('privateAddress');
    const toLoopback = async () => ['127.0.0.1'];
    expect(await refusal(guardedFetch('https://idp.example.com/metadata', { allowLoopback: false, lookup: toLoopback }))).to.equal('privateAddress');
  });

  it('refuses a name with any private address among its public ones (metadata services, the office network)', async () => {
    const mixed = async () => ['8.8.8.8', '169.254.169.254'];
    expect(await refusal(guardedFetch('https://idp.example.com/metadata', { allowLoopback: true, lookup: mixed }))).to.equal('privateAddress');
    const privateOnly = async () => ['10.0.0.5'];
    expect(await refusal(guardedFetch('https://idp.example.com/metadata', { allowLoopback: true, lookup: privateOnly }))).to.equal('privateAddress');
  });

  it('allows the private ranges only where SSO_ALLOW_PRIVATE_ADDRESSES does, and never link-local or loopback through it', async () => {
    const privateOnly = async () => ['10.0.0.5'];
    expect(await refusal(guardedFetch('https://idp.corp.example.com/metadata', { allowLoopback: false, lookup: privateOnly }))).to.equal('privateAddress');
    // allowed: the fetch goes on to connect (nothing listens there: it fails, but not as a refused address)
    const reason = await refusal(guardedFetch('https://idp.corp.example.com/metadata', { allowLoopback: false, allowPrivate: true, lookup: privateOnly, timeoutMs: 200 }));
    expect(reason).to.be.oneOf(['timeout', 'network']);
    for (const address of ['169.254.169.254', '127.0.0.1', '100.64.0.1']) {
      const lookup = async () => [address];
      expect(await refusal(guardedFetch('https://idp.corp.example.com/metadata', { allowLoopback: false, allowPrivate: true, lookup })), address).to.equal('privateAddress');
    }
  });

  it('connects to the address it checked, not to what a second lookup would answer (no DNS rebinding)', async () => {
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    // the first answer is checked and used; were the name looked up again, it would answer a private address
    const rebinding = async () => (lookups++ === 0 ? ['127.0.0.1'] : ['10.0.0.5']);
    expect(await guardedFetch(`http://localhost:${port}/metadata`, { allowLoopback: true, lookup: rebinding })).to.equal('<EntityDescriptor/>');
    expect(lookups).to.equal(1);
  });

  it('refuses a redirect instead of following it', async () => {
    expect(await refusal(guardedFetch(`${base}/redirect`, { allowLoopback: true }))).to.equal('redirect');
  });

  it('refuses an answer larger than the cap, declared or streamed', async () => {
    expect(await refusal(guardedFetch(`${base}/large`, { allowLoopback: true, maxBytes: 1024 }))).to.equal('tooLarge');
    expect(await refusal(guardedFetch(`${base}/large-chunked`, { allowLoopback: true, maxBytes: 2048 }))).to.equal('tooLarge');
  });

  it('refuses an answer that does not come within the time limit', async () => {
    expect(await refusal(guardedFetch(`${base}/slow`, { allowLoopback: true, timeoutMs: 200 }))).to.equal('timeout');
  });

  it('refuses an error status', async () => {
    expect(await refusal(guardedFetch(`${base}/missing`, { allowLoopback: true }))).to.equal('status');
  });
});
