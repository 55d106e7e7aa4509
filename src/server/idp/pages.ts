/**
 * The identity provider's own pages, rendered on the server in ja or en from locales/<lang>/signin.json: sign-in,
 * organisation choice, sign-out and errors. Plain HTML with one stylesheet (/oidc/assets/signin.css) and, on the
 * sign-out page only, one external script: nothing inline, so they run under the portal's strict CSP.
 */
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from '../../common/languages.js';
import { loadLocales, type LocaleTree } from '../../configuration/load.js';

export const ASSETS_PATH = '/oidc/assets';

let locales: Record<Language, LocaleTree> | undefined;

/** A translation function over the `signin` locale file of a language. */
export function translator(language: Language): (key: string, values?: Record<string, string | number>) => string {
  locales ??= loadLocales();
  const tree = (locales[language].signin ?? {}) as LocaleTree;
  return (key, values = {}) => {
    const found = key.split('.').reduce<LocaleTree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
    const text = typeof found === 'string' ? found : key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
  };
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The page language: the first supported language of `ui_locales` (space-separated, e.g. "en-US ja"), else the
 * language remembered in a cookie, else the browser's Accept-Language, else ja.
 */
export function pickLanguage(uiLocales: unknown, cookie: unknown, acceptLanguage: unknown): Language {
  const candidates = [
    ...(typeof uiLocales === 'string' ? uiLocales.split(/\s+/) : []),
    ...(typeof cookie === 'string' ? [cookie] : []),
    ...(typeof acceptLanguage === 'string' ? acceptLanguage.split(',').map((part) => part.split(';')[0]!.trim()) : []),
  ];
  for (const candidate of candidates) {
    const primary = candidate.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

interface Layout {
  language: Language;
  title: string;
  body: string;
  /** Links switching the page language (same page with ?lang=…); omitted on pages that are only passed through. */
  languageLinks?: (language: Language) => string;
  script?: string;
}

function layout({ language, title, body, languageLinks, script }: Layout): string {
  const t = translator(language);
  const switcher = languageLinks
    ? `<nav class="idp-languages" aria-label="${escapeHtml(t('language'))}"><ul>${LANGUAGES.map((other) =>
        other === language
          ? `<li><span aria-current="true" lang="${other}">${escapeHtml(t(`languages.${other}`))}</span></li>`
          : `<li><a href="${escapeHtml(languageLinks(other))}" lang="${other}" hreflang="${other}">${escapeHtml(t(`languages.${other}`))}</a></li>`,
      ).join('')}</ul></nav>`
    : '';
  return `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} | ${escapeHtml(t('appName'))}</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="${ASSETS_PATH}/signin.css">
${script ? `<script src="${escapeHtml(script)}" defer></script>\n` : ''}</head>
<body>
<header class="idp-header"><p class="idp-brand">${escapeHtml(t('appName'))}</p></header>
<main class="idp-main" id="main">
${body}
</main>
${switcher ? `<footer class="idp-footer">${switcher}</footer>` : ''}
</body>
</html>`;
}

export interface SigninPageOptions {
  language: Language;
  /** POST target of the form. */
  action: string;
  /** The portal's base URL (links to password reset and registration). */
  publicUrl: string;
  email?: string;
  /** 'invalid' | 'required' | { lockedMinutes }. */
  error?: { kind: 'invalid' } | { kind: 'required' } | { kind: 'locked'; minutes: number };
  /** error_message_key of the authorisation request (e.g. no_organization_affiliation). */
  messageKey?: string;
  languageLink: (language: Language) => string;
}

/** SPEC §7 / issue 3: 'Email', 'Password', 'Sign in', the error, 'Forgot your password?' and the registration link. */
export function signinPage(options: SigninPageOptions): string {
  const t = translator(options.language);
  const { error } = options;
  const errorText = !error
    ? ''
    : error.kind === 'locked'
      ? t('locked', { minutes: error.minutes })
      : error.kind === 'required'
        ? t('required')
        : t('invalidCredentials');
  const message = options.messageKey
    ? t(`messages.${options.messageKey}`) === `messages.${options.messageKey}`
      ? t('messages.unknown')
      : t(`messages.${options.messageKey}`)
    : '';
  const describedBy = error ? ' aria-describedby="signin-error"' : '';
  const invalid = error ? ' aria-invalid="true"' : '';
  const body = `<h1>${escapeHtml(t('title'))}</h1>
${message ? `<p class="idp-notice" role="status">${escapeHtml(message)}</p>` : ''}
${errorText ? `<p class="idp-error" id="signin-error" role="alert">${escapeHtml(errorText)}</p>` : ''}
<p class="idp-lead">${escapeHtml(t('lead'))}</p>
<form class="idp-form" method="post" action="${escapeHtml(options.action)}">
  <div class="idp-field">
    <label for="email">${escapeHtml(t('email'))}</label>
    <input id="email" name="email" type="email" inputmode="email" autocomplete="username" required maxlength="100" value="${escapeHtml(options.email ?? '')}"${options.email ? '' : ' autofocus'}${describedBy}${invalid}>
  </div>
  <div class="idp-field">
    <label for="password">${escapeHtml(t('password'))}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128"${options.email ? ' autofocus' : ''}${describedBy}${invalid}>
  </div>
  <button type="submit" class="idp-button idp-button--primary">${escapeHtml(t('submit'))}</button>
</form>
<ul class="idp-links">
  <li><a href="${escapeHtml(`${options.publicUrl}/password/reset/start`)}">${escapeHtml(t('forgotPassword'))}</a></li>
  <li><a href="${escapeHtml(`${options.publicUrl}/registration`)}">${escapeHtml(t('register'))}</a></li>
</ul>`;
  return layout({ language: options.language, title: t('title'), body, languageLinks: options.languageLink });
}

export interface SecondStepPageOptions {
  language: Language;
  action: string;
  /** The code was wrong or already used; or too many tries (minutes until the next). */
  error?: { kind: 'invalid' } | { kind: 'required' } | { kind: 'locked'; minutes: number };
  /** Start over with another account (a new authorisation with prompt=login). */
  otherAccountUrl: string;
  languageLink: (language: Language) => string;
}

/** Issue 29: after the password, an admin with a second factor enters a code of the app or a recovery code. */
export function secondStepPage(options: SecondStepPageOptions): string {
  const t = translator(options.language);
  const { error } = options;
  const errorText = !error ? '' : error.kind === 'locked' ? t('locked', { minutes: error.minutes }) : t(`twoStep.${error.kind}`);
  const described = error ? ' aria-describedby="two-step-error" aria-invalid="true"' : ' aria-describedby="two-step-hint"';
  const body = `<h1>${escapeHtml(t('twoStep.title'))}</h1>
${errorText ? `<p class="idp-error" id="two-step-error" role="alert">${escapeHtml(errorText)}</p>` : ''}
<p class="idp-lead" id="two-step-hint">${escapeHtml(t('twoStep.lead'))}</p>
<form class="idp-form" method="post" action="${escapeHtml(options.action)}">
  <div class="idp-field">
    <label for="code">${escapeHtml(t('twoStep.code'))}</label>
    <input id="code" name="code" type="text" autocomplete="one-time-code" required maxlength="20" spellcheck="false" autocapitalize="characters" autofocus${described}>
  </div>
  <button type="submit" class="idp-button idp-button--primary">${escapeHtml(t('twoStep.submit'))}</button>
</form>
<p class="idp-detail">${escapeHtml(t('twoStep.recovery'))}</p>
<ul class="idp-links"><li><a href="${escapeHtml(options.otherAccountUrl)}">${escapeHtml(t('organization.otherAccount'))}</a></li></ul>`;
  return layout({ language: options.language, title: t('twoStep.title'), body, languageLinks: options.languageLink });
}

export interface OrganizationChoice {
  id: number;
  gloplaId: string;
  corporationOfficialName: string;
}

export interface OrganizationPageOptions {
  language: Language;
  action: string;
  organizations: OrganizationChoice[];
  /** A sign-in with another account (a new authorisation with prompt=login). */
  otherAccountUrl?: string;
  languageLink: (language: Language) => string;
}

/** 'Select Your Organization': each organisation (official name and gloplaId) is a button. */
export function organizationPage(options: OrganizationPageOptions): string {
  const t = translator(options.language);
  const items = options.organizations
    .map(
      (organization) =>
        `<li><button type="submit" class="idp-button idp-choice" name="organization_id" value="${organization.id}">${escapeHtml(
          t('organization.choice', { name: organization.corporationOfficialName, gloplaId: organization.gloplaId }),
        )}</button></li>`,
    )
    .join('\n');
  const body = `<h1>${escapeHtml(t('organization.title'))}</h1>
<p class="idp-lead">${escapeHtml(t('organization.lead'))}</p>
<form class="idp-form" method="post" action="${escapeHtml(options.action)}">
<ul class="idp-choices">
${items}
</ul>
</form>
${options.otherAccountUrl ? `<ul class="idp-links"><li><a href="${escapeHtml(options.otherAccountUrl)}">${escapeHtml(t('organization.otherAccount'))}</a></li></ul>` : ''}`;
  return layout({ language: options.language, title: t('organization.title'), body, languageLinks: options.languageLink });
}

/**
 * The sign-out page: oidc-provider's confirmation form, submitted at once by /oidc/assets/logout.js (the portal
 * asked for the sign-out); without JavaScript the button does it.
 */
/**
 * The end-session confirmation. `autoSubmit` (the portal's own logout, with a valid id_token_hint of the signed-in
 * admin) submits it at once by the external script; otherwise it asks, so a cross-site link cannot sign anyone out.
 */
export function logoutPage(language: Language, action: string, xsrf: string, autoSubmit: boolean): string {
  const t = translator(language);
  const body = `<h1>${escapeHtml(t('logout.title'))}</h1>
<p class="idp-lead" role="status">${escapeHtml(t(autoSubmit ? 'logout.lead' : 'logout.confirm'))}</p>
<form class="idp-form" id="logout-form" method="post" action="${escapeHtml(action)}">
  <input type="hidden" name="xsrf" value="${escapeHtml(xsrf)}">
  <input type="hidden" name="logout" value="yes">
  <button type="submit" class="idp-button idp-button--primary">${escapeHtml(t('logout.submit'))}</button>
</form>`;
  return layout({ language, title: t('logout.title'), body, ...(autoSubmit ? { script: `${ASSETS_PATH}/logout.js` } : {}) });
}

export function logoutDonePage(language: Language, publicUrl: string): string {
  const t = translator(language);
  const body = `<h1>${escapeHtml(t('logout.title'))}</h1>
<p class="idp-lead">${escapeHtml(t('logout.done'))}</p>
<ul class="idp-links"><li><a href="${escapeHtml(`${publicUrl}/`)}">${escapeHtml(t('logout.backToPortal'))}</a></li></ul>`;
  return layout({ language, title: t('logout.title'), body });
}

export function errorPage(language: Language, publicUrl: string, kind: 'expired' | 'generic', detail?: string): string {
  const t = translator(language);
  const body = `<h1>${escapeHtml(t('error.title'))}</h1>
<p class="idp-error" role="alert">${escapeHtml(t(`error.${kind}`))}</p>
${detail ? `<p class="idp-detail"><code>${escapeHtml(detail)}</code></p>` : ''}
<ul class="idp-links"><li><a href="${escapeHtml(`${publicUrl}/`)}">${escapeHtml(t('error.backToPortal'))}</a></li></ul>`;
  return layout({ language, title: t('error.title'), body });
}
