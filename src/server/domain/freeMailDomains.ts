/**
 * Free-mail domains an organisation may not claim for single sign-on (issue 45): their addresses belong to anyone, not
 * to one customer. The setting SSO_FREE_MAIL_DOMAINS (comma-separated) replaces this list; a subdomain of a listed
 * domain is refused too. Japanese carriers' and webmail providers' domains first, then the international ones.
 */
export const DEFAULT_FREE_MAIL_DOMAINS: readonly string[] = Object.freeze([
  // Japan: carriers' mail, webmail, providers' personal mail
  'docomo.ne.jp', 'ezweb.ne.jp', 'au.com', 'softbank.ne.jp', 'i.softbank.jp', 'ymobile.ne.jp', 'rakuten.jp',
  'yahoo.co.jp', 'ybb.ne.jp', 'nifty.com', 'biglobe.ne.jp', 'so-net.ne.jp', 'ocn.ne.jp', 'excite.co.jp', 'livedoor.com',
  // international webmail
  'gmail.com', 'googlemail.com', 'yahoo.com', 'ymail.com', 'outlook.com', 'outlook.jp', 'hotmail.com', 'hotmail.co.jp',
  'live.com', 'live.jp', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'gmx.com', 'gmx.net', 'mail.com',
  'proton.me', 'protonmail.com', 'zoho.com', 'yandex.com', 'qq.com', '163.com', '126.com', 'naver.com', 'daum.net',
]);

/** Whether the domain (lower-case ASCII) is one of the list or beneath one. */
export function isFreeMailDomain(domain: string, list: readonly string[]): boolean {
  return list.some((listed) => domain === listed || domain.endsWith(`.${listed}`));
}
