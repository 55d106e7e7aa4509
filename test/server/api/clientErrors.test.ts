import { expect } from 'chai';
import { clientGroup, ReportLimiter } from '../../../src/server/api/clientErrors.js';
import { capturingLogger } from '../support/log.js';
import { useTestApp } from '../support/testApp.js';

describe('POST /api/v2/client_errors', () => {
  const log = capturingLogger();
  const ctx = useTestApp({ logger: log.logger });
  const post = (payload: unknown) => ctx.app.inject({ method: 'POST', url: '/api/v2/client_errors', payload: payload as object });

  beforeEach(() => {
    log.lines.length = 0;
  });

  it('logs the report at error level and answers 204', async () => {
    const response = await post({ message: 'TypeError: x is undefined', context: { url: '/memberships', status_code: 500 } });
    expect(response.statusCode).to.equal(204);
    expect(response.body).to.equal('');
    const report = log.lines.find((line) => line.msg === 'client error report');
    expect(report).to.include({ level: 50 });
    expect(report!.clientError).to.deep.equal({ message: 'TypeError: x is undefined', context: { url: '/memberships', statusCode: 500 } });
  });

  it('accepts nested context such as the failed call\'s response body', async () => {
    const response = await post({ message: 'Error: 500', context: { kind: 'http', body: { error: 'internal_error', detail: ['a'] } } });
    expect(response.statusCode).to.equal(204);
    const report = log.lines.find((line) => line.msg === 'client error report') as { clientError: { context: { body: unknown } } };
    expect(report.clientError.context.body).to.deep.equal({ error: 'internal_error', detail: ['a'] });
  });

  it('refuses strings over 1000 characters and missing messages', async () => {
    const tooLong = await post({ message: 'x'.repeat(1001) });
    expect(tooLong.statusCode).to.equal(422);
    expect(tooLong.json().errors).to.deep.equal([{ field: 'message', code: 'tooLong', meta: { length: 1000 } }]);

    const longContext = await post({ message: 'm', context: { detail: 'y'.repeat(1001) } });
    expect(longContext.statusCode).to.equal(422);

    const missing = await post({ context: {} });
    expect(missing.statusCode).to.equal(422);
    expect(missing.json().errors).to.deep.equal([{ field: 'message', code: 'blank', meta: {} }]);
    expect(log.lines.filter((line) => line.msg === 'client error report')).to.have.length(0);
  });

  it('refuses large bodies', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/client_errors',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'm', context: { a: 'x'.repeat(20_000) } }),
    });
    expect(response.statusCode).to.equal(413);
    expect(response.json()).to.deep.equal({ error: 'bad_request' });
  });

  it('logs at most 30 reports a minute per client, then drops them quietly', async () => {
    const limiter = new ReportLimiter();
    for (let i = 0; i < limiter.perWindow + 5; i++) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/client_errors', payload: { message: `loop ${i}` }, remoteAddress: '10.0.0.9' });
      expect(response.statusCode).to.equal(204);
    }
    const reports = log.lines.filter((line) => line.msg === 'client error report');
    expect(reports).to.have.length(limiter.perWindow);
    expect(log.lines.filter((line) => String(line.msg).startsWith('client error reports over the limit'))).to.have.length(1);
  });
});

describe('ReportLimiter', () => {
  it('counts per client and window', () => {
    let now = 0;
    const limiter = new ReportLimiter(2, 1000, 2, () => now);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).to.deep.equal(['log', 'log', 'suppress-first', 'suppress']);
    expect(limiter.take('b')).to.equal('log');
    expect(limiter.take('c')).to.equal('suppress'); // more distinct clients than it keeps
    now = 1000;
    expect(limiter.take('a')).to.equal('log');
  });

  it('caps the reports of all clients together per window, with one warning (issue 7 finding 12)', () => {
    let now = 0;
    const limiter = new ReportLimiter(2, 1000, 100, () => now, 3);
    expect(['a', 'b', 'c', 'd', 'e'].map((client) => limiter.take(client))).to.deep.equal(['log', 'log', 'log', 'suppress-total-first', 'suppress']);
    now = 1000;
    expect(limiter.take('f')).to.equal('log');
  });

  it('groups IPv6 clients by /64 and IPv4 clients by address (issue 7 finding 12)', () => {
    expect(clientGroup('2001:db8:1:2:3:4:5:6')).to.equal('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8:1:2::9')).to.equal('2001:db8:1:2::/64');
    expect(clientGroup('2001:DB8::1')).to.equal('2001:db8:0:0::/64');
    expect(clientGroup('::1')).to.equal('0:0:0:0::/64');
    expect(clientGroup('::ffff:192.0.2.7')).to.equal('192.0.2.7');
    expect(clientGroup('192.0.2.7')).to.equal('192.0.2.7');
    const limiter = new ReportLimiter(2);
    expect(['2001:db8::1', '2001:db8::2', '2001:db8::3'].map((address) => limiter.take(clientGroup(address)))).to.deep.equal(['log', 'log', 'suppress-first']);
  });
});

describe('POST /api/v2/client_errors from many addresses (issue 7 finding 12)', () => {
  const log = capturingLogger();
  const ctx = useTestApp({ logger: log.logger });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    for (let i = 1; i <= 40; i++) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/client_errors', payload: { message: `v6 ${i}` }, remoteAddress: `2001:db8:aa:bb::${i.toString(16)}` });
      expect(response.statusCode).to.equal(204);
    }
    expect(log.lines.filter((line) => line.msg === 'client error report')).to.have.length(new ReportLimiter().perWindow);
  });
});
