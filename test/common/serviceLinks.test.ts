/**
 * SPEC §7 link rewriting, rule by rule and exception by exception: one row per case, the link given and the link
 * expected. The exceptions are the settings' values passed in (src/server/config.ts), here made-up ones so that no
 * default is assumed.
 */
import { expect } from 'chai';
import { rewriteServiceLink, SERVICE_GROUP, type LinkCategory, type LinkContext } from '../../src/common/serviceLinks.js';

const exceptions = {
  learningCheckAdminUrl: 'https://admin.library.test/learning-check',
  samlIdpUrl: 'https://saml.provider.test/idp',
  signinHost: 'signin.provider.test',
  signinOverHttp: false,
};

const context = (serviceGroupId: number, serviceId = serviceGroupId, demo = false): LinkContext => ({
  serviceGroupId,
  serviceId,
  gloplaId: 'G0000001',
  token: 'TOKEN',
  language: 'en',
  exceptions: { ...exceptions, signinOverHttp: demo },
});

interface Row {
  rule: string;
  category: LinkCategory;
  group: number;
  serviceId?: number;
  /** Demo mode (signinOverHttp). */
  demo?: boolean;
  url: string;
  expected: string;
}

const { hodai, emba, hodaiplus, gls, school, gmap, gu, newhodaiplus, newemba } = SERVICE_GROUP;

const TABLE: Row[] = [
  // history links that are not absolute get service_group_id
  { rule: 'relative history link: service_group_id added', category: 'history', group: hodai, url: '/subscription/list', expected: '/subscription/list?service_group_id=1' },
  { rule: 'relative history link keeps its query and fragment', category: 'history', group: emba, url: '/list?page=2#top', expected: '/list?page=2&service_group_id=2#top' },
  { rule: 'absolute history link: unchanged', category: 'history', group: hodai, url: 'https://history.test/list', expected: 'https://history.test/list' },
  // admin links of hodai, gu, hodaiplus, newhodaiplus and newemba get glopla_id
  ...[hodai, gu, hodaiplus, newhodaiplus, newemba].map((group) => ({
    rule: `admin link of group ${group}: glopla_id added`,
    category: 'admin' as const,
    group,
    url: 'https://admin.test/dashboard',
    expected: 'https://admin.test/dashboard?glopla_id=G0000001',
  })),
  ...[emba, school, gmap].map((group) => ({ rule: `admin link of group ${group}: unchanged`, category: 'admin' as const, group, url: 'https://admin.test/dashboard', expected: 'https://admin.test/dashboard' })),
  { rule: 'admin link that already carries glopla_id: unchanged', category: 'admin', group: hodai, url: 'https://admin.test/?glopla_id=G9', expected: 'https://admin.test/?glopla_id=G9' },
  { rule: 'exception: the learning-check admin page gets no glopla_id', category: 'admin', group: hodai, url: 'https://admin.library.test/learning-check', expected: 'https://admin.library.test/learning-check' },
  { rule: 'exception: a page under the learning-check admin page neither', category: 'admin', group: gu, url: 'https://admin.library.test/learning-check/results?x=1', expected: 'https://admin.library.test/learning-check/results?x=1' },
  {
    rule: 'a page beside the learning-check admin page is no exception',
    category: 'admin',
    group: hodai,
    url: 'https://admin.library.test/learning-checks',
    expected: 'https://admin.library.test/learning-checks?glopla_id=G0000001',
  },
  { rule: 'other categories of those groups: unchanged', category: 'description', group: hodai, url: 'https://hodai.test/', expected: 'https://hodai.test/' },
  // other_sso links of gls get glopla_id unless they point to the provider's SAML identity provider
  { rule: 'gls other_sso link: glopla_id added', category: 'other_sso', group: gls, serviceId: 40, url: 'https://sso.gls.test/login', expected: 'https://sso.gls.test/login?glopla_id=G0000001' },
  { rule: 'gls other_sso link with glopla_id: unchanged', category: 'other_sso', group: gls, serviceId: 40, url: 'https://sso.gls.test/login?glopla_id=G2', expected: 'https://sso.gls.test/login?glopla_id=G2' },
  { rule: 'exception: gls other_sso link to the SAML identity provider: unchanged', category: 'other_sso', group: gls, serviceId: 40, url: 'https://saml.provider.test/idp/sso?sp=gls', expected: 'https://saml.provider.test/idp/sso?sp=gls' },
  { rule: 'other_sso link of another group: unchanged', category: 'other_sso', group: hodai, url: 'https://sso.test/login', expected: 'https://sso.test/login' },
  // links to the provider's sign-in host get at={gloplaId}:{token}
  { rule: 'link to the sign-in host: at added', category: 'description', group: school, url: 'https://signin.provider.test/start', expected: 'https://signin.provider.test/start?at=G0000001%3ATOKEN' },
  { rule: 'admin link to the sign-in host: glopla_id and at', category: 'admin', group: newemba, url: 'https://signin.provider.test/admin', expected: 'https://signin.provider.test/admin?glopla_id=G0000001&at=G0000001%3ATOKEN' },
  { rule: 'sign-in host matched without regard to case', category: 'terms', group: gmap, url: 'https://SIGNIN.provider.test/', expected: 'https://signin.provider.test/?at=G0000001%3ATOKEN' },
  // the access token never travels over plain http (issue 15 finding 9)
  { rule: 'plain http link to the sign-in host: no at', category: 'description', group: school, url: 'http://signin.provider.test/start', expected: 'http://signin.provider.test/start' },
  { rule: 'protocol-relative link to the sign-in host: read as https, at added', category: 'description', group: school, url: '//signin.provider.test/start', expected: 'https://signin.provider.test/start?at=G0000001%3ATOKEN' },
  { rule: 'protocol-relative admin link: glopla_id added, written as https', category: 'admin', group: hodai, url: '//admin.hodai.test/', expected: 'https://admin.hodai.test/?glopla_id=G0000001' },
  { rule: 'demo mode: plain http link to the sign-in host gets at', category: 'description', group: school, url: 'http://signin.provider.test/start', demo: true, expected: 'http://signin.provider.test/start?at=G0000001%3ATOKEN' },
  { rule: 'other schemes to the sign-in host: no at, even in demo mode', category: 'description', group: school, url: 'ftp://signin.provider.test/', demo: true, expected: 'ftp://signin.provider.test/' },
  { rule: 'a sub-domain of the sign-in host is another host', category: 'terms', group: gmap, url: 'https://x.signin.provider.test/', expected: 'https://x.signin.provider.test/' },
  // admin links on the project layout (service id 4) get the locale
  { rule: 'project layout: admin link gets locale', category: 'admin', group: gls, serviceId: 4, url: 'https://admin.gls.test/', expected: 'https://admin.gls.test/?locale=en' },
  { rule: 'project layout: other_sso gets glopla_id only', category: 'other_sso', group: gls, serviceId: 4, url: 'https://sso.gls.test/', expected: 'https://sso.gls.test/?glopla_id=G0000001' },
  { rule: 'project layout: description link unchanged', category: 'description', group: gls, serviceId: 4, url: 'https://gls.test/', expected: 'https://gls.test/' },
  { rule: 'standard layout: admin link gets no locale', category: 'admin', group: emba, url: 'https://admin.test/', expected: 'https://admin.test/' },
  // what is not a rule
  { rule: 'purchase links: unchanged', category: 'purchase', group: hodai, url: '/subscription/group/1/new', expected: '/subscription/group/1/new' },
  { rule: 'relative admin link of hodai: glopla_id added, still relative', category: 'admin', group: hodai, url: '/admin', expected: '/admin?glopla_id=G0000001' },
];

describe('rewriteServiceLink (SPEC §7 link rewriting)', () => {
  for (const row of TABLE) {
    it(row.rule, () => {
      const link = { url: row.url, category: row.category, label: 'Label' };
      const rewritten = rewriteServiceLink(link, context(row.group, row.serviceId, row.demo));
      expect(rewritten).to.deep.equal({ ...link, url: row.expected });
    });
  }

  it('leaves the other fields of the link as they are and does not change the given link', () => {
    const link = { url: '/list', category: 'history' as const, label: 'History', extra: 1 };
    expect(rewriteServiceLink(link, context(hodai))).to.deep.equal({ url: '/list?service_group_id=1', category: 'history', label: 'History', extra: 1 });
    expect(link.url).to.equal('/list');
  });
});
