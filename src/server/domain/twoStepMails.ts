/**
 * The mail telling an admin that a second factor was added to or removed from their account (issue 29): someone who
 * did not do it learns it at once. Sent through the mail queue in the admin's language, with a link to the page.
 */
import type { Db } from '../db/index.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage, renderMail } from '../mail/templates.js';
import { findAdminById } from './admins.js';

export interface TwoStepMailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

export async function mailTwoStepChange(deps: TwoStepMailDeps, adminId: number, change: 'added' | 'removed', now = new Date()): Promise<void> {
  const admin = await findAdminById(deps.db, adminId);
  if (!admin) return;
  const language = mailLanguage(undefined, admin.language);
  const time = now.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-GB', { timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'short' }) + ' (JST)';
  const mail = renderMail(change === 'added' ? 'twoStepAdded' : 'twoStepRemoved', language, { time }, `${deps.publicUrl}/account/security?locale=${language}`);
  await deps.mailer.send({ ...mail, to: admin.email });
}
