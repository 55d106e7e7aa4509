/**
 * The mails that tell an admin of a security event on their account (issue 29; issue 44 finding 9): someone who did
 * not do it learns it at once. Sent through the mail queue in the admin's language, with a link to the page where it
 * is seen or undone. The enrolment link (issue 44 finding 3) carries a token: its mail is a job of the queue that
 * issues the token as it sends, so no token waits in clear.
 */
import type { Db } from '../db/index.js';
import type { Mailer } from '../mail/mailer.js';
import { localeText, mailLanguage, renderMail, validityText, type MailTemplate } from '../mail/templates.js';
import { findAdminById } from './admins.js';
import { issueEnrolmentToken } from './twoStep.js';

export interface SecurityMailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

/** The kinds of second factor, as the mail names them (locales/<lang>/mail.json twoStepFactors). */
export type SecondFactor = 'authenticatorApp' | 'passkey';

export type SecurityEvent =
  | { kind: 'twoStepAdded' | 'twoStepRemoved'; factor: SecondFactor }
  | { kind: 'recoveryCodesGenerated' | 'recoveryCodeUsed' | 'passwordChanged' }
  | { kind: 'signInLocked' | 'secondStepLocked'; minutes: number }
  | { kind: 'twoStepRuleChanged'; organization: string; required: boolean };

/** Where each mail leads: the page that shows (or undoes) what happened. */
const PAGE: Record<SecurityEvent['kind'], string> = {
  twoStepAdded: '/account/security',
  twoStepRemoved: '/account/security',
  recoveryCodesGenerated: '/account/security',
  recoveryCodeUsed: '/account/security',
  passwordChanged: '/account',
  signInLocked: '/password/reset',
  secondStepLocked: '/account/security',
  twoStepRuleChanged: '/account/security',
};

const timeIn = (language: string, now: Date) =>
  now.toLocaleString(language === 'ja' ? 'ja-JP' : 'en-GB', { timeZone: 'Asia/Tokyo', dateStyle: 'medium', timeStyle: 'short' }) + ' (JST)';

function templateOf(event: SecurityEvent): MailTemplate {
  if (event.kind === 'twoStepRuleChanged') return event.required ? 'twoStepRuleOn' : 'twoStepRuleOff';
  return event.kind;
}

export async function mailSecurityEvent(deps: SecurityMailDeps, adminId: number, event: SecurityEvent, now = new Date()): Promise<void> {
  const admin = await findAdminById(deps.db, adminId);
  if (!admin) return;
  const language = mailLanguage(undefined, admin.language);
  const params: Record<string, string> = { time: timeIn(language, now) };
  if ('factor' in event) params.factor = localeText(language, `mail.twoStepFactors.${event.factor}`);
  if ('minutes' in event) params.minutes = String(event.minutes);
  if ('organization' in event) params.organization = event.organization;
  const mail = renderMail(templateOf(event), language, params, `${deps.publicUrl}${PAGE[event.kind]}?locale=${language}`);
  await deps.mailer.send({ ...mail, to: admin.email });
}

/** mailSecurityEvent for a request or a sign-in page: queued, logged when it cannot be, never failing the answer. */
export function tellOfSecurityEvent(deps: SecurityMailDeps, log: { error(details: object, message: string): void }, adminId: number, event: SecurityEvent): Promise<void> {
  return mailSecurityEvent(deps, adminId, event).catch((error: unknown) => log.error({ err: error, event: event.kind }, 'the mail of a security event could not be queued'));
}

/** The organisation's rule changed: each of its admins is told, in their own language. */
export async function mailTwoStepRuleChange(deps: SecurityMailDeps, organizationId: number, required: boolean): Promise<void> {
  const organization = await deps.db.selectFrom('organizations').select(['corporationOfficialName', 'gloplaId']).where('id', '=', organizationId).executeTakeFirst();
  if (!organization) return;
  const admins = await deps.db.selectFrom('affiliations').innerJoin('admins', 'admins.id', 'affiliations.adminId').select('admins.id').where('affiliations.organizationId', '=', organizationId).where('admins.activatedAt', 'is not', null).execute();
  const event = { kind: 'twoStepRuleChanged', organization: `${organization.corporationOfficialName} (${organization.gloplaId})`, required } as const;
  for (const { id } of admins) await mailSecurityEvent(deps, id, event);
}

/** The mail queue's job that issues the enrolment link's token and mails it (never queued in clear). */
export const ENROLMENT_LINK_JOB = 'twoStepEnrolmentLink';
export interface EnrolmentLinkJob {
  adminId: number;
}

/** The link that opens a first factor's set-up (`/account/security?enrolment=…`): a new token, mailed at once. */
export async function mailEnrolmentLink(deps: SecurityMailDeps, { adminId }: EnrolmentLinkJob, ttlSeconds: number): Promise<void> {
  const admin = await findAdminById(deps.db, adminId);
  if (!admin) return;
  const token = await issueEnrolmentToken(deps.db, adminId, ttlSeconds);
  const language = mailLanguage(undefined, admin.language);
  const link = `${deps.publicUrl}/account/security?enrolment=${encodeURIComponent(token)}&locale=${language}`;
  const mail = renderMail('twoStepEnrolment', language, { validity: validityText(language, ttlSeconds) }, link);
  await deps.mailer.send({ ...mail, to: admin.email });
}
