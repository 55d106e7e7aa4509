import { expect } from 'chai';
import { reportError } from '../../../src/client/api/report.js';
import { bodyOf, setup } from './harness.js';

describe('client/api/report', () => {
  const globals = globalThis as { window?: unknown };
  let saved: unknown;
  beforeEach(() => {
    saved = globals.window;
  });
  afterEach(() => {
    globals.window = saved;
  });

  it('reports the page location without its query and hash, token segments hidden (issue 7 finding 4)', async () => {
    globals.window = { location: { href: 'https://portal.example.com/admins/4/activate/secret-token?locale=ja&token=t0ken#part' } };
    const harness = setup({ routes: { 'POST /api/v2/client_errors': () => new Response(null, { status: 204 }) } });
    await harness.run(reportError, { message: 'boom', context: { extra: 1 } }).toPromise();
    const [report] = harness.calls('POST', '/api/v2/client_errors');
    expect(bodyOf(report!.args[1])).to.deep.equal({
      message: 'boom',
      context: { location: 'https://portal.example.com/admins/4/activate/[redacted]', extra: 1 },
    });
  });
});
