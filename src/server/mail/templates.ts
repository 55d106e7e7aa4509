/**
 * The portal's mails, in Japanese and English, each with a plain-text and an HTML part. The wording is in
 * `locales/<lang>/mail.json` (product staff edit it there; `npm run check:config` checks both languages have every
 * key); the code only lays it out:
 * - `mail.<template>.subject`: the subject line;
 * - `mail.<template>.body`: paragraphs separated by a blank line; `{{name}}` inserts a value; a paragraph that is
 *   exactly `{{link}}` becomes the action link (the URL in the text part, a link labelled `mail.<template>.action`
 *   followed by the URL in the HTML part);
 * - a paragraph that is exactly `{{name}}` with an empty value is left out (an optional paragraph);
 * - `mail.footer` and `mail.signature` close every mail.
 * Links are absolute (PUBLIC_URL) and carry `locale=<language>` where the page supports it (SPEC 2.2).
 */
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../common/languages.js';
import { loadLocales, type LocaleTree } from '../../configuration/load.js';

export const MAIL_TEMPLATES = ['activation', 'activationCcNotice', 'invitation', 'passwordReset', 'registrationReceived', 'registrationNotification', 'subscriptionApplied', 'subscriptionChanged', 'subscriptionCancelled', 'twoStepAdded', 'twoStepRemoved', 'deadlineReminder', 'recoveryCodesGenerated', 'recoveryCodeUsed', 'passwordChanged', 'signInLocked', 'secondStepLocked', 'twoStepRuleOn', 'twoStepRuleOff', 'twoStepEnrolment', 'ssoCertificateExpiring', 'webhookEndpointDisabled'] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

let locales: Record<Language, LocaleTree> | undefined;

/** The locale trees, read once per process (tests may reset them with `resetMailLocales`). */
function mailLocales(): Record<Language, LocaleTree> {
  locales ??= loadLocales();
  return locales;
}

export function resetMailLocales(): void {
  locales = undefined;
}

/** A text of locales/ in the language (falling back to ja); throws when the key is missing in both. */
export function localeText(language: Language, key: string): string {
  return lookup(language, key);
}

function lookup(language: Language, key: string): string {
  const find = (tree: LocaleTree | undefined) =>
    key.split('.').reduce<LocaleTree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
  const value = find(mailLocales()[language]) ?? find(mailLocales()[DEFAULT_LANGUAGE]);
  if (typeof value !== 'string') throw new Error(`Missing mail text ${key} (${language}) in locales/`);
  return value;
}

/** Replaces `{{name}}` with params.name (unknown names are left as they are). */
function interpolate(text: string, params: Record<string, string>, escape: (value: string) => string = (value) => value): string {
  return text.replace(/\{\{\s*([a-zA-Z][a-zA-Z0-9]*)\s*\}\}/g, (whole, name: string) => (name in params ? escape(params[name]!) : whole));
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const LINK_PARAGRAPH = /^\{\{\s*link\s*\}\}$/;

/**
 * Renders a mail. `params` fill the placeholders; `link`, when given, is the action URL. Values are escaped in the
 * HTML part.
 */
export function renderMail(template: MailTemplate, language: Language, params: Record<string, string>, link?: string): RenderedMail {
  const values = link === undefined ? params : { ...params, link };
  const subject = interpolate(lookup(language, `mail.${template}.subject`), values);
  const body = lookup(language, `mail.${template}.body`).replace(/\r\n/g, '\n').trim();
  const closing = [lookup(language, 'mail.footer'), lookup(language, 'mail.signature')];
  // a paragraph that is only a placeholder whose value is empty is left out (an optional paragraph)
  const paragraphs = body.split(/\n{2,}/).filter((paragraph) => interpolate(paragraph.trim(), values) !== '');

  const text = [...paragraphs.map((paragraph) => interpolate(paragraph, values)), '--', ...closing].join('\n\n') + '\n';

  const htmlParagraphs = paragraphs.map((paragraph) => {
    if (link !== undefined && LINK_PARAGRAPH.test(paragraph.trim())) {
      const label = escapeHtml(interpolate(lookup(language, `mail.${template}.action`), values));
      const url = escapeHtml(link);
      return `<p><a href="${url}">${label}</a></p>\n<p>${url}</p>`;
    }
    return `<p>${interpolate(escapeHtml(paragraph), values, escapeHtml).replace(/\n/g, '<br>\n')}</p>`;
  });
  const html = [
    '<!doctype html>',
    `<html lang="${language}">`,
    `<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body>',
    ...htmlParagraphs,
    '<hr>',
    ...closing.map((line) => `<p>${escapeHtml(line).replace(/\n/g, '<br>\n')}</p>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { subject, text, html };
}

/** The mail's language: the request's (the page the person used), else the admin's (`ja-JP` → ja), else ja. */
export function mailLanguage(requested?: string | null, adminLanguage?: string | null): Language {
  if (isLanguage(requested)) return requested;
  const primary = adminLanguage?.split(/[-_]/)[0]?.toLowerCase();
  return isLanguage(primary) ? primary : DEFAULT_LANGUAGE;
}

/** '72時間', '1 hour', '30 minutes' — how long a link works, in the mail's language. */
export function validityText(language: Language, seconds: number): string {
  // whole weeks and more in days, whole hours in hours (72 hours, not 3 days), anything else in minutes
  const [unit, count] =
    seconds % 86400 === 0 && seconds >= 7 * 86400
      ? ['days', seconds / 86400]
      : seconds % 3600 === 0
        ? ['hours', seconds / 3600]
        : ['minutes', Math.max(1, Math.round(seconds / 60))];
  const key = `mail.validity.${unit}${count === 1 ? 'One' : ''}`;
  return interpolate(lookup(language, key), { count: String(count) });
}
