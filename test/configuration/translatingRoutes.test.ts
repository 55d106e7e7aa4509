import { expect } from 'chai';
import { routeShape, TRANSLATING_ROUTES, translates } from '../../src/common/translatingRoutes.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, MEMORY_DATABASE_URL } from '../../src/server/config.js';

/** Routes whose `lang` chooses the language of a mail they send, not of their answer: the page does not choose it. */
const MAIL_LANGUAGE = [
  'POST admin/account_activation_email',
  'POST admin/reset_password_token_call',
  'POST organizations/:orgId/affiliations',
  'POST organizations/:orgId/affiliations/admins/:adminId/invitation',
];

describe('translating routes (src/common/translatingRoutes.ts)', () => {
  it("are exactly the server's routes whose query takes lang, but those where it is a mail's language", async function () {
    // a whole app on a new in-memory database: its migrations take tens of seconds on a busy machine
    this.timeout(120_000);
    const app = await buildApp(loadConfig({ ...process.env, DATABASE_URL: MEMORY_DATABASE_URL, SEED: 'none', LOG_LEVEL: 'error' }));
    try {
      await app.ready();
      const document = app.swagger() as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>> };
      const withLang = Object.entries(document.paths).flatMap(([url, methods]) =>
        Object.entries(methods)
          .filter(([, operation]) => (operation.parameters ?? []).some((parameter) => parameter.in === 'query' && parameter.name === 'lang'))
          .map(([method]) => routeShape(method, url.replace('/api/v2/', '').replace(/\{(\w+)\}/g, ':$1'))),
      );
      const translating = withLang.filter((route) => !MAIL_LANGUAGE.map((mail) => routeShape(...(mail.split(' ') as [string, string]))).includes(route));
      expect(translating).to.have.members(TRANSLATING_ROUTES.map((route) => routeShape(...(route.split(' ') as [string, string]))));
    } finally {
      await app.close();
    }
  });

  it('match a call by method and path, whatever its placeholders are named, in v2 only', () => {
    expect(translates('GET', 'service_groups/:serviceGroupId/services')).to.equal(true);
    expect(translates('GET', 'service_groups/:id/services', 'v1')).to.equal(false);
    expect(translates('DELETE', 'organizations/:orgId/corporate_subscriptions/:requestCode')).to.equal(false);
    expect(translates('GET', 'organizations/:orgId/contacts')).to.equal(false);
  });
});
