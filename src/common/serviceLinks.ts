/**
 * The service family (SPEC §1) and the rewriting of a service's links (SPEC §7 'Link rewriting on service links'):
 * one pure function, the same rules wherever a link is shown. The pages the SPEC names only by description (the
 * learning-check admin page, the provider's SAML identity provider, the provider's sign-in host) come in as
 * `exceptions`: settings of the server (src/server/config.ts), never literals here.
 */

/** The service-group ids of SPEC §1 (also the ids of the groups' representative services). */
export const SERVICE_GROUP = {
  hodai: 1,
  emba: 2,
  hodaiplus: 3,
  gls: 4,
  school: 5,
  gmap: 6,
  gu: 7,
  newhodaiplus: 9,
  newemba: 10,
} as const;

/** The service detail's project / other-SSO layout (SPEC 2.8) is the one of service id 4; every other id is standard. */
export const PROJECT_LAYOUT_SERVICE_ID = 4;

export const LINK_CATEGORIES = ['description', 'purchase', 'history', 'admin', 'terms', 'other_sso'] as const;
export type LinkCategory = (typeof LINK_CATEGORIES)[number];

/** SPEC 2.8 and §6: the only categories a member sees; managers see them all. */
export const MEMBER_LINK_CATEGORIES: readonly LinkCategory[] = ['description', 'admin', 'other_sso'];

export interface ServiceLink {
  url: string;
  category: LinkCategory;
  label: string;
}

export interface LinkExceptions {
  /** The learning-check admin page: admin links at or under this URL keep no glopla_id. */
  learningCheckAdminUrl: string;
  /** The provider's SAML identity provider: gls other_sso links at or under this URL keep no glopla_id. */
  samlIdpUrl: string;
  /** The provider's sign-in host (host name, optionally with a port): https links to it get at={gloplaId}:{token}. */
  signinHost: string;
  /** Demo mode only: plain http links to the sign-in host get `at` too (a local stand-in of the provider). */
  signinOverHttp: boolean;
}

export interface LinkContext {
  /** The group of the service (or the group) the link belongs to. */
  serviceGroupId: number;
  /** The service shown: the project layout (id 4) adds the locale to admin links. */
  serviceId: number;
  /** The signed-in organisation. */
  gloplaId: string;
  /** The signed-in admin's access token. */
  token: string;
  /** The page's language (the locale parameter of the project layout). */
  language: string;
  exceptions: LinkExceptions;
}

/** Admin links of these groups get glopla_id (SPEC §7). */
const GLOPLA_ID_ADMIN_GROUPS: readonly number[] = [SERVICE_GROUP.hodai, SERVICE_GROUP.gu, SERVICE_GROUP.hodaiplus, SERVICE_GROUP.newhodaiplus, SERVICE_GROUP.newemba];

/** Any base: only to parse relative URLs; it never appears in a result. https: a protocol-relative link is read as https. */
const BASE = 'https://relative.invalid';

export function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');
}

/** The URL at or under `prefix`: the same origin, and a path equal to the prefix's or below it. */
function isUnder(url: URL, prefix: string): boolean {
  let base: URL;
  try {
    base = new URL(prefix);
  } catch {
    return false;
  }
  if (url.origin !== base.origin) return false;
  const path = base.pathname.replace(/\/+$/, '');
  return path === '' || url.pathname === path || url.pathname.startsWith(`${path}/`);
}

/**
 * The link as the service detail shows it (SPEC §7), its other fields unchanged:
 * - history links that are not absolute get service_group_id={id};
 * - admin links of hodai, gu, hodaiplus, newhodaiplus and newemba get glopla_id={gloplaId}, unless the URL is the
 *   learning-check admin page or already carries glopla_id; likewise other_sso links of gls that do not point to the
 *   provider's SAML identity provider;
 * - https links to the provider's sign-in host get at={gloplaId}:{token} (the access token: never over plain http,
 *   except in demo mode; a protocol-relative link is read, and written, as https);
 * - admin links on the project layout (service id 4) get locale={language}.
 * A URL that cannot be parsed is left as it is.
 */
export function rewriteServiceLink<L extends ServiceLink>(link: L, context: LinkContext): L {
  const absolute = isAbsoluteUrl(link.url);
  let url: URL;
  try {
    url = new URL(link.url, BASE);
  } catch {
    return link;
  }
  const params = url.searchParams;
  const { category } = link;
  const { serviceGroupId, exceptions } = context;
  let changed = false;
  const add = (name: string, value: string) => {
    params.set(name, value);
    changed = true;
  };

  if (category === 'history' && !absolute) add('service_group_id', String(serviceGroupId));

  const gloplaIdAdmin = category === 'admin' && GLOPLA_ID_ADMIN_GROUPS.includes(serviceGroupId) && !isUnder(url, exceptions.learningCheckAdminUrl);
  const gloplaIdSso = category === 'other_sso' && serviceGroupId === SERVICE_GROUP.gls && !isUnder(url, exceptions.samlIdpUrl);
  if ((gloplaIdAdmin || gloplaIdSso) && !params.has('glopla_id')) add('glopla_id', context.gloplaId);

  const secure = url.protocol === 'https:' || (exceptions.signinOverHttp && url.protocol === 'http:');
  if (absolute && secure && url.host.toLowerCase() === exceptions.signinHost.toLowerCase()) add('at', `${context.gloplaId}:${context.token}`);

  if (category === 'admin' && context.serviceId === PROJECT_LAYOUT_SERVICE_ID) add('locale', context.language);

  if (!changed) return link;
  const rewritten = absolute ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
  return { ...link, url: rewritten };
}
