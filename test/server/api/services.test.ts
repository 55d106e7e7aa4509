/**
 * The service catalogue (SPEC §1, §3, 2.7, 2.8, §7 'Services and classes'): groups and their services, what an
 * organisation may use, the links a role sees and their rewriting, the project classes.
 */
import { expect } from 'chai';
import { bearer } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';
import { accessToken } from '../support/tokens.js';

const MANAGER = '1';
const MEMBER = '2';

interface Link {
  url: string;
  category: string;
  label: string;
}

describe('The service catalogue', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
  const tokens: Record<string, string> = {};
  const as = async (who: string, gloplaId = 'G0000001') => {
    const key = `${who}@${gloplaId}`;
    tokens[key] ??= await accessToken(ctx.app, { sub: who, gloplaId });
    return tokens[key]!;
  };
  const get = async (url: string, who = MANAGER, gloplaId = 'G0000001') => ctx.app.inject({ url, headers: bearer(await as(who, gloplaId)) });

  describe('GET /api/v2/services (Home)', () => {
    it('needs a signed-in admin', async () => {
      const response = await ctx.app.inject({ url: '/api/v2/services' });
      expect(response.statusCode).to.equal(401);
      expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
    });

    it('lists one card per group, its representative service (id = group id), in the asked language', async () => {
      const response = await get('/api/v2/services?lang=en');
      expect(response.statusCode).to.equal(200);
      const { services } = response.json();
      expect(services.map((service: { id: number }) => service.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9, 10]);
      expect(services.map((service: { service_group: { id: number } }) => service.service_group.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9, 10]);
      expect(services[0]).to.include({ name: 'Unlimited Library' });
      expect(services[0].thumbnail_url).to.match(/^data:image\/png;base64,/);
    });

    it('answers in Japanese by default', async () => {
      const { services } = (await get('/api/v2/services')).json();
      expect(services[0].name).to.equal('見放題ライブラリ');
    });

    it("lists only the groups of the services the session's organisation may use", async () => {
      // the manager of G0000001 signed in for G0000002, where they are a member
      const { services } = (await get('/api/v2/services', MANAGER, 'G0000002')).json();
      expect(services.map((service: { id: number }) => service.id)).to.deep.equal([1, 4, 6, 10]);
    });

    it("shows a group whose representative the organisation may not use through the group's first usable service", async () => {
      const organization = await ctx.db.selectFrom('organizations').select('id').where('gloplaId', '=', 'G0000002').executeTakeFirstOrThrow();
      await ctx.db.insertInto('organizationServices').values({ organizationId: organization.id, serviceId: 23 }).execute();
      try {
        const { services } = (await get('/api/v2/services', MANAGER, 'G0000002')).json();
        expect(services.map((service: { id: number }) => service.id)).to.deep.equal([1, 23, 4, 6, 10]);
      } finally {
        await ctx.db.deleteFrom('organizationServices').where('organizationId', '=', organization.id).where('serviceId', '=', 23).execute();
      }
    });

    it('refuses a language the portal does not have', async () => {
      const response = await get('/api/v2/services?lang=fr');
      expect(response.statusCode).to.equal(422);
      expect(response.json().errors[0]).to.include({ field: 'lang', code: 'invalid' });
    });

    it('refuses a session without an organisation of the admin', async () => {
      const token = await accessToken(ctx.app, { sub: MEMBER, gloplaId: 'G0000002' });
      const response = await ctx.app.inject({ url: '/api/v2/services', headers: bearer(token) });
      expect(response.statusCode).to.equal(403);
      expect(response.json()).to.deep.equal({ error: 'forbidden' });
    });
  });

  describe('GET /api/v2/service_groups', () => {
    it('lists the nine groups of SPEC §1 with their selection kind, user limit and class size', async () => {
      const { service_groups: groups } = (await get('/api/v2/service_groups?lang=en')).json();
      expect(groups.map((group: { id: number; identifier: string }) => `${group.id} ${group.identifier}`)).to.deep.equal([
        '1 hodai',
        '2 emba',
        '3 hodaiplus',
        '4 gls',
        '5 school',
        '6 gmap',
        '7 gu',
        '9 newhodaiplus',
        '10 newemba',
      ]);
      const byId = new Map(groups.map((group: { id: number }) => [group.id, group]));
      for (const id of [1, 3, 7]) expect(byId.get(id)).to.include({ selection: 'single' });
      expect(byId.get(2)).to.include({ selection: 'multi', maximum_users: 300 });
      expect(byId.get(1)).to.include({ maximum_users: 1000 });
      expect(byId.get(4)).to.deep.include({ class_size: { minimum: 10, maximum: 40 } });
      expect(byId.get(1)).to.deep.include({ class_size: null });
    });

    it("answers one group with its links, and 404 for an unknown group or one the organisation does not use", async () => {
      const response = await get('/api/v2/service_groups/3?lang=en');
      expect(response.statusCode).to.equal(200);
      const group = response.json().service_group;
      expect(group).to.include({ id: 3, identifier: 'hodaiplus', name: 'Library Plus (legacy)' });
      expect(group.urls.find((link: Link) => link.category === 'history').url).to.equal('/services/3?service_group_id=3');
      expect((await get('/api/v2/service_groups/8')).statusCode).to.equal(404);
      expect((await get('/api/v2/service_groups/2', MANAGER, 'G0000002')).statusCode).to.equal(404);
    });
  });

  describe('GET /api/v2/service_groups/{id}/services', () => {
    const services = async (id: number) => (await get(`/api/v2/service_groups/${id}/services?lang=en`)).json().services as Array<Record<string, unknown>>;

    it('the single-choice groups 1, 3 and 7 hold terms of 3, 6 and 12 months, in that order', async () => {
      for (const id of [1, 3, 7]) expect((await services(id)).map((service) => service.subtitle), `group ${id}`).to.deep.equal(['3 months', '6 months', '12 months']);
    });

    it('hodaiplus holds 23 (old plus 6 months, last start 2026-02-01) and 25 (12 months, last start 2025-08-01, discontinued)', async () => {
      const list = await services(3);
      expect(list.find((service) => service.id === 23)).to.include({ subtitle: '6 months', last_starts_on: '2026-02-01', discontinued: false });
      expect(list.find((service) => service.id === 25)).to.include({ subtitle: '12 months', last_starts_on: '2025-08-01', discontinued: true });
    });

    it('the multi-select emba holds subjects with subtitles, each with its last start date 2026-05-01', async () => {
      const list = await services(2);
      expect(list.map((service) => service.subtitle)).to.deep.equal(['Critical Thinking', 'Marketing', 'Accounting', 'Leadership']);
      expect(new Set(list.map((service) => service.last_starts_on))).to.deep.equal(new Set(['2026-05-01']));
    });

    it('the other groups hold one service each, the one with the group id', async () => {
      for (const id of [4, 5, 6, 9, 10]) expect((await services(id)).map((service) => service.id)).to.deep.equal([id]);
    });

    it('names the group of each service with its links', async () => {
      const [service] = await services(6);
      expect(service!.service_group).to.deep.include({ id: 6, name: 'Assessment' });
    });

    it('answers 404 for an unknown group (the browser goes to top) and for one the organisation does not use', async () => {
      const unknown = await get('/api/v2/service_groups/99/services');
      expect(unknown.statusCode).to.equal(404);
      expect(unknown.json()).to.deep.equal({ error: 'not_found' });
      expect((await get('/api/v2/service_groups/2/services', MANAGER, 'G0000002')).statusCode).to.equal(404);
    });
  });

  describe('GET /api/v2/services/{id} (Service Details)', () => {
    const detail = async (id: number, who = MANAGER) => {
      const response = await get(`/api/v2/services/${id}?lang=en`, who);
      expect(response.statusCode).to.equal(200);
      return response.json().service as { urls: Link[]; service_group: { id: number; urls: Link[] } } & Record<string, unknown>;
    };
    const categories = (links: Link[]) => [...new Set(links.map((link) => link.category))].sort();

    it('answers the service with name, subtitle, summary, description, image and its group', async () => {
      const service = await detail(1);
      expect(service).to.include({ id: 1, name: 'Unlimited Library', subtitle: '12 months' });
      expect(service.description).to.be.a('string').and.not.empty;
      expect(service.image_url).to.match(/^data:image\/png;base64,/);
      expect(service.service_group).to.deep.include({ id: 1, name: 'Unlimited Library' });
    });

    it('gives a manager every link category and a member only description, admin and other_sso', async () => {
      expect(categories((await detail(4)).urls)).to.deep.equal(['admin', 'description', 'history', 'other_sso', 'purchase', 'terms']);
      const member = await detail(4, MEMBER);
      expect(categories(member.urls)).to.deep.equal(['admin', 'description', 'other_sso']);
      expect(categories(member.service_group.urls)).to.deep.equal(['admin']);
    });

    it('gives a member the purchase links of school-type training and the assessment product, applied for on their own sites regardless of role (SPEC §6)', async () => {
      expect(categories((await detail(5, MEMBER)).urls)).to.deep.equal(['admin', 'description', 'purchase']);
      expect(categories((await detail(6, MEMBER)).urls)).to.deep.equal(['admin', 'description', 'purchase']);
      expect(categories((await detail(10, MEMBER)).urls)).to.deep.equal(['admin', 'description']);
    });

    it("rewrites the links for the caller: glopla_id on hodai's admin links but the learning-check page, service_group_id on relative history links", async () => {
      const { urls } = await detail(1);
      const admin = urls.filter((link) => link.category === 'admin').map((link) => link.url);
      expect(admin).to.deep.equal(['https://admin.hodai.example.com/dashboard?glopla_id=G0000001', 'https://admin.hodai.example.com/learning-check']);
      expect(urls.find((link) => link.category === 'history')!.url).to.equal('/services/1?service_group_id=1');
    });

    it('adds the locale to admin links on the project layout and glopla_id to gls other_sso links but the SAML one', async () => {
      const { urls } = await detail(4);
      expect(urls.find((link) => link.category === 'admin')!.url).to.equal('https://admin.gls.example.com/dashboard?locale=en');
      expect(urls.filter((link) => link.category === 'other_sso').map((link) => link.url)).to.deep.equal([
        'https://sso.gls.example.com/login?glopla_id=G0000001',
        'https://saml.example.com/sso?sp=gls',
      ]);
    });

    it("gives links to the provider's sign-in host the caller's own organisation and token", async () => {
      const { urls } = await detail(10, MEMBER);
      const url = new URL(urls.find((link) => link.category === 'admin')!.url);
      expect(url.host).to.equal('signin.example.com');
      expect(url.searchParams.get('at')).to.equal(`G0000001:${await as(MEMBER)}`);
    });

    it('answers 404 for an unknown service and for one the organisation does not use', async () => {
      expect((await get('/api/v2/services/8')).statusCode).to.equal(404);
      expect((await get('/api/v2/services/2', MANAGER, 'G0000002')).statusCode).to.equal(404);
    });
  });

  describe('GET /api/v2/organizations/{orgId}/project_classes/bundled', () => {
    it("answers the organisation's bundled and gls classes with their projects", async () => {
      const response = await get('/api/v2/organizations/1/project_classes/bundled');
      expect(response.statusCode).to.equal(200);
      const { project_classes: classes, projects } = response.json();
      expect(classes.gls.map((projectClass: { code: string }) => projectClass.code)).to.deep.equal(['GLS-A', 'GLS-B', 'GLS-C', 'GLS-D']);
      expect(classes.bundled.map((projectClass: { code: string }) => projectClass.code)).to.deep.equal(['BND-1', 'BND-2']);
      expect(classes.gls[0]).to.have.all.keys('id', 'name', 'project_code', 'code');
      expect(classes.gls[0].project_code).to.equal('PJ2026-001');
      expect(projects).to.deep.equal([
        { project_code: 'PJ2026-001', name: '2026年度 新任管理職研修' },
        { project_code: 'PJ2026-002', name: '全社 見放題セット研修' },
      ]);
    });

    it('is for managers of the organisation only', async () => {
      expect((await get('/api/v2/organizations/1/project_classes/bundled', MEMBER)).statusCode).to.equal(403);
      expect((await get('/api/v2/organizations/2/project_classes/bundled')).statusCode).to.equal(403);
    });
  });
});

describe('The link exceptions are settings', () => {
  const ctx = useTestApp({
    env: {
      SEED: 'demo',
      PUBLIC_URL: 'http://localhost:3000',
      LEARNING_CHECK_ADMIN_URL: 'https://admin.hodai.example.com/dashboard',
      PROVIDER_SAML_IDP_URL: 'https://sso.gls.example.com/',
      PROVIDER_SIGNIN_HOST: 'admin.hodai.example.com',
    },
  });

  it('follows LEARNING_CHECK_ADMIN_URL, PROVIDER_SAML_IDP_URL and PROVIDER_SIGNIN_HOST', async () => {
    const headers = bearer(await accessToken(ctx.app, { sub: MANAGER }));
    const hodai = (await ctx.app.inject({ url: '/api/v2/services/1', headers })).json().service.urls as Link[];
    const admin = hodai.filter((link) => link.category === 'admin').map((link) => new URL(link.url));
    // the dashboard is now the learning-check page (no glopla_id); the former one is an ordinary admin page
    expect(admin[0]!.searchParams.has('glopla_id')).to.equal(false);
    expect(admin[1]!.searchParams.get('glopla_id')).to.equal('G0000001');
    // both are on the sign-in host now
    expect(admin.every((url) => url.searchParams.get('at')?.startsWith('G0000001:'))).to.equal(true);
    const gls = (await ctx.app.inject({ url: '/api/v2/services/4', headers })).json().service.urls as Link[];
    expect(gls.filter((link) => link.category === 'other_sso').map((link) => link.url)).to.deep.equal([
      'https://sso.gls.example.com/login',
      'https://saml.example.com/sso?sp=gls&glopla_id=G0000001',
    ]);
  });
});
