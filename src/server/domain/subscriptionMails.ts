/**
 * The confirmation mail of an application (SPEC 2.11 'Done view': 'mail sent' to the destination): after a real
 * (not dry-run) application, change or cancellation, the manager who made it gets the request code, the service, the
 * start date and the number of learners, with a link to Application Details. Sent through the mail queue, so the
 * answer never waits for it; a failing mail is logged and retried there and does not undo the application.
 */
import type { Subscription } from '../../common/api/answers.js';
import { findAdminById } from './admins.js';
import type { Db } from '../db/index.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage, renderMail } from '../mail/templates.js';

export type SubscriptionMailKind = 'subscriptionApplied' | 'subscriptionChanged' | 'subscriptionCancelled';

export interface SubscriptionMailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

export async function mailSubscription(
  deps: SubscriptionMailDeps,
  input: { kind: SubscriptionMailKind; adminId: number; requestedLanguage?: string; subscription: Subscription },
): Promise<void> {
  const admin = await findAdminById(deps.db, input.adminId);
  if (!admin) return;
  const language = mailLanguage(input.requestedLanguage, admin.language);
  const { subscription } = input;
  const link = `${deps.publicUrl}/subscription/${encodeURIComponent(subscription.requestCode)}?locale=${language}`;
  const mail = renderMail(
    input.kind,
    language,
    {
      requestCode: subscription.requestCode,
      serviceGroup: subscription.services[0]?.serviceGroup.name ?? '',
      services: subscription.services.map((service) => (service.subtitle ? `${service.name} ${service.subtitle}` : service.name)).join(', '),
      startsOn: subscription.startsOn[0] ?? '',
      changeDeadline: subscription.changeDeadline,
      userCount: String(subscription.userCount),
    },
    input.kind === 'subscriptionCancelled' ? undefined : link,
  );
  await deps.mailer.send({ ...mail, to: admin.email });
}
