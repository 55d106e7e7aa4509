/**
 * The mail telling an admin that a second factor was added to or removed from their account (issue 29): someone who
 * did not do it learns it at once. Sent through the mail queue in the admin's language, with a link to the page.
 */
import type { Db } from '../db/index.js';
import type { Mailer } from '../mail/mailer.js';
import { localeText, mailLanguage, renderMail } from '../mail/templates.js';
import { findAdminById } from './admins.js';

export interface TwoStepMailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

/** The kinds of second factor, as the mail names them (locales/<lang>/mail.json twoStepFactors). */
export type SecondFactor = 'authenticatorApp' | 'passkey';

export async function mailTwoStepChange(deps: TwoStepMailDeps, adminId: number, change: { kind: 'added' | 'removed'; factor: SecondFactor }, now = new Date()): Promise<void> {
  const admin = await findAdminById(deps.db, adminId);
  if (!admin) return;
  const language = mailLanguage(undefined, admin.language);
  const time = now.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-GB', { timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'short' }) + ' (JST)';
  const factor = localeText(language, `mail.twoStepFactors.${change.factor}`);
  const mail = renderMail(change.kind === 'added' ? 'twoStepAdded' : 'twoStepRemoved', language, { time, factor }, `${deps.publicUrl}/account/security?locale=${language}`);
  await deps.mailer.send({ ...mail, to: admin.email });
}
