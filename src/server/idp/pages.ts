/**
 * The identity provider's own pages, rendered on the server in ja or en from locales/<lang>/signin.json: sign-in,
 * organisation choice, sign-out and errors. Plain HTML with one stylesheet (/oidc/assets/signin.css) and, on some
 * pages, external scripts of this origin (the sign-in's signin.js, the passkey's, the sign-out's): nothing inline, so
 * they run under the portal's strict CSP, and every page works without them.
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
  scripts?: string[];
  /** Goes on to this URL at once (meta refresh). */
  refreshTo?: string;
}

export function layout({ language, title, body, languageLinks, scripts = [], refreshTo }: Layout): string {
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
${refreshTo ? `<meta http-equiv="refresh" content="0; url=${escapeHtml(refreshTo)}">\n` : ''}<title>${escapeHtml(title)} | ${escapeHtml(t('appName'))}</title>
<link rel="icon" href="/favicon.png">
<link rel="stylesheet" href="${ASSETS_PATH}/signin.css">
${scripts.map((script) => `<script src="${escapeHtml(script)}" defer></script>\n`).join('')}</head>
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
  /** Where signin.js asks whether an address's domain signs in through single sign-on (home-realm discovery). */
  realmUrl: string;
  /** The portal's base URL (links to password reset and registration). */
  publicUrl: string;
  email?: string;
  /** 'invalid' | 'required' | { lockedMinutes } | 'secondStepRestart' (too many wrong codes: the password again). */
  error?:
    | { kind: 'invalid' }
    | { kind: 'required' }
    | { kind: 'secondStepRestart' }
    | { kind: 'locked'; minutes: number }
    /** Single sign-on (issue 45): required for the address's domain; not set up for it; no e-mail typed. */
    | { kind: 'ssoRequired' }
    | { kind: 'ssoUnavailable' }
    | { kind: 'ssoEmailRequired' };
  /** error_message_key of the authorisation request (e.g. no_organization_affiliation). */
  messageKey?: string;
  /** 'Sign in with a passkey' (issue 29): the page signing in with a discoverable credential, no password. */
  passkeyUrl?: string;
  languageLink: (language: Language) => string;
}

/**
 * SPEC §7 / issue 3: 'Email', 'Password', 'Sign in', the error, 'Forgot your password?' and the registration link, on
 * one page (password managers and every sign-in so far fill both fields and press 'Sign in').
 *
 * Home-realm discovery (issue 45), as progressive enhancement: 'Sign in' with an address whose domain signs in through
 * single sign-on and no password goes to its IdP, so the password is not `required`; 'Continue with single sign-on'
 * does so with any password. With script (signin.js), the page asks `realmUrl` about the typed address's domain: when it
 * signs in through single sign-on, the password hides, 'Sign in' reads 'Continue' and 'Use my password instead' brings
 * the password back (not where the domain requires single sign-on); the change is announced in #realm-status.
 */
export function signinPage(options: SigninPageOptions): string {
  const t = translator(options.language);
  const { error } = options;
  const errorText = !error
    ? ''
    : error.kind === 'locked'
      ? t('locked', { minutes: error.minutes })
      : error.kind === 'required'
        ? t('required')
        : error.kind === 'secondStepRestart'
          ? t('twoStep.restart')
          : error.kind === 'ssoRequired'
            ? t('sso.required')
            : error.kind === 'ssoUnavailable'
              ? t('sso.unavailable')
              : error.kind === 'ssoEmailRequired'
                ? t('sso.emailRequired')
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
<form class="idp-form" id="signin-form" method="post" action="${escapeHtml(options.action)}" data-realm="${escapeHtml(options.realmUrl)}">
  <div class="idp-field">
    <label for="email">${escapeHtml(t('email'))}</label>
    <input id="email" name="email" type="email" inputmode="email" autocomplete="username" required maxlength="100" value="${escapeHtml(options.email ?? '')}"${options.email ? '' : ' autofocus'}${describedBy}${invalid}>
  </div>
  <p class="idp-realm" id="realm-status" role="status" data-sso="${escapeHtml(t('sso.realm.sso'))}" data-required="${escapeHtml(t('sso.realm.required'))}" data-password="${escapeHtml(t('sso.realm.password'))}"></p>
  <div class="idp-field" id="password-field">
    <label for="password">${escapeHtml(t('password'))}</label>
    <input id="password" name="password" type="password" autocomplete="current-password" maxlength="128"${options.email ? ' autofocus' : ''}${describedBy}${invalid}>
  </div>
  <button type="submit" class="idp-button idp-button--primary" id="signin-submit" data-sign-in="${escapeHtml(t('submit'))}" data-continue="${escapeHtml(t('sso.realm.continue'))}">${escapeHtml(t('submit'))}</button>
  <button type="button" class="idp-link-button" id="use-password" hidden>${escapeHtml(t('sso.realm.usePassword'))}</button>
  <p class="idp-detail">${escapeHtml(t('sso.lead'))}</p>
  <button type="submit" class="idp-button" name="sso" value="1" formnovalidate>${escapeHtml(t('sso.continue'))}</button>
</form>
<ul class="idp-links">
  ${options.passkeyUrl ? `<li><a href="${escapeHtml(options.passkeyUrl)}">${escapeHtml(t('passkey.signIn'))}</a></li>` : ''}
  <li><a href="${escapeHtml(`${options.publicUrl}/password/reset/start`)}">${escapeHtml(t('forgotPassword'))}</a></li>
  <li><a href="${escapeHtml(`${options.publicUrl}/registration`)}">${escapeHtml(t('register'))}</a></li>
</ul>`;
  return layout({ language: options.language, title: t('title'), body, languageLinks: options.languageLink, scripts: [`${ASSETS_PATH}/signin.js`] });
}

/** The scripts of a page offering a passkey: the WebAuthn library, then the button's. */
const PASSKEY_SCRIPTS = [`${ASSETS_PATH}/webauthn.js`, `${ASSETS_PATH}/passkey.js`];

/**
 * 'Use a passkey': a button (shown by passkey.js where the browser can) that asks for the ceremony's options at
 * `optionsUrl`, and the form posting the device's answer to `action`.
 */
function passkeyBlock(t: ReturnType<typeof translator>, label: string, passkey: { optionsUrl: string; action: string }): string {
  return `<form class="idp-form idp-passkey" id="passkey-form" method="post" action="${escapeHtml(passkey.action)}">
  <input type="hidden" name="credential" value="">
  <p class="idp-error" id="passkey-error" role="alert" hidden data-text="${escapeHtml(t('passkey.failed'))}"></p>
  <p class="idp-detail" id="passkey-unsupported">${escapeHtml(t('passkey.unsupported'))}</p>
  <button type="button" class="idp-button" id="passkey-button" data-options="${escapeHtml(passkey.optionsUrl)}" hidden>${escapeHtml(label)}</button>
</form>`;
}

/** 'Sign in with a passkey' (issue 29): 'Use a passkey' signs in with a passkey of this site alone, no password. */
export function passkeyPage(options: {
  language: Language;
  passkey: { optionsUrl: string; action: string };
  passwordUrl: string;
  error?: boolean;
  languageLink: (language: Language) => string;
}): string {
  const t = translator(options.language);
  const body = `<h1>${escapeHtml(t('passkey.signIn'))}</h1>
${options.error ? `<p class="idp-error" role="alert">${escapeHtml(t('passkey.invalid'))}</p>` : ''}
<p class="idp-lead">${escapeHtml(t('passkey.lead'))}</p>
${passkeyBlock(t, t('passkey.use'), options.passkey)}
<ul class="idp-links"><li><a href="${escapeHtml(options.passwordUrl)}">${escapeHtml(t('passkey.withPassword'))}</a></li></ul>`;
  return layout({ language: options.language, title: t('passkey.signIn'), body, languageLinks: options.languageLink, scripts: PASSKEY_SCRIPTS });
}

export interface SecondStepPageOptions {
  language: Language;
  action: string;
  /** The code was wrong or already used; or too many tries (minutes until the next). */
  error?: { kind: 'invalid' } | { kind: 'required' } | { kind: 'locked'; minutes: number };
  /** Start over with another account (a new authorisation with prompt=login). */
  otherAccountUrl: string;
  /** The admin has passkeys: 'Use a passkey'. */
  passkey?: { optionsUrl: string; action: string };
  /** The admin has an authenticator app: the code field is the app's (else recovery codes only). */
  authenticatorApp: boolean;
  languageLink: (language: Language) => string;
}

/** Issue 29: after the password, an admin with a second factor uses a passkey, or enters a code of the app or a recovery code. */
export function secondStepPage(options: SecondStepPageOptions): string {
  const t = translator(options.language);
  const { error } = options;
  const errorText = !error ? '' : error.kind === 'locked' ? t('locked', { minutes: error.minutes }) : t(`twoStep.${error.kind}`);
  const described = error ? ' aria-describedby="two-step-error" aria-invalid="true"' : ' aria-describedby="two-step-hint"';
  const body = `<h1>${escapeHtml(t('twoStep.title'))}</h1>
${errorText ? `<p class="idp-error" id="two-step-error" role="alert">${escapeHtml(errorText)}</p>` : ''}
${options.passkey ? passkeyBlock(t, t('passkey.use'), options.passkey) : ''}
<p class="idp-lead" id="two-step-hint">${escapeHtml(t(options.authenticatorApp ? 'twoStep.lead' : 'twoStep.leadRecovery'))}</p>
<form class="idp-form" method="post" action="${escapeHtml(options.action)}">
  <div class="idp-field">
    <label for="code">${escapeHtml(t('twoStep.code'))}</label>
    <input id="code" name="code" type="text" autocomplete="one-time-code" required maxlength="20" spellcheck="false" autocapitalize="characters" autofocus${described}>
  </div>
  <button type="submit" class="idp-button idp-button--primary">${escapeHtml(t('twoStep.submit'))}</button>
</form>
<p class="idp-detail">${escapeHtml(t('twoStep.recovery'))}</p>
<ul class="idp-links"><li><a href="${escapeHtml(options.otherAccountUrl)}">${escapeHtml(t('organization.otherAccount'))}</a></li></ul>`;
  return layout({ language: options.language, title: t('twoStep.title'), body, languageLinks: options.languageLink, ...(options.passkey ? { scripts: PASSKEY_SCRIPTS } : {}) });
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
  return layout({ language, title: t('logout.title'), body, ...(autoSubmit ? { scripts: [`${ASSETS_PATH}/logout.js`] } : {}) });
}

export function logoutDonePage(language: Language, publicUrl: string): string {
  const t = translator(language);
  const body = `<h1>${escapeHtml(t('logout.title'))}</h1>
<p class="idp-lead">${escapeHtml(t('logout.done'))}</p>
<ul class="idp-links"><li><a href="${escapeHtml(`${publicUrl}/`)}">${escapeHtml(t('logout.backToPortal'))}</a></li></ul>`;
  return layout({ language, title: t('logout.title'), body });
}

export function errorPage(language: Language, publicUrl: string, kind: 'expired' | 'generic' | 'federation', detail?: string): string {
  const t = translator(language);
  const body = `<h1>${escapeHtml(t('error.title'))}</h1>
<p class="idp-error" role="alert">${escapeHtml(t(`error.${kind}`))}</p>
${detail ? `<p class="idp-detail"><code>${escapeHtml(detail)}</code></p>` : ''}
<ul class="idp-links"><li><a href="${escapeHtml(`${publicUrl}/`)}">${escapeHtml(t('error.backToPortal'))}</a></li></ul>`;
  return layout({ language, title: t('error.title'), body });
}

/**
 * On to the organisation's IdP after 'Continue with single sign-on': a page that goes there at once (meta refresh), with
 * a link, rather than a redirect answering the form's POST — the pages' CSP form-action 'self' stops a form's redirect
 * to another origin in the browser, and stays that strict on the password page.
 */
export function toIdentityProviderPage(language: Language, url: string): string {
  const t = translator(language);
  const body = `<h1>${escapeHtml(t('sso.redirectTitle'))}</h1>
<p class="idp-lead" role="status">${escapeHtml(t('sso.redirecting'))}</p>
<ul class="idp-links"><li><a href="${escapeHtml(url)}">${escapeHtml(t('sso.redirectLink'))}</a></li></ul>`;
  return layout({ language, title: t('sso.redirectTitle'), body, refreshTo: url });
}
