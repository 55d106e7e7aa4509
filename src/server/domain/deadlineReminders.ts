/**
 * The change-deadline reminders (issue 30): when an application's change deadline is `businessDays` business days
 * away or fewer and not yet passed, each manager of its organisation who has not turned reminders off (My Account)
 * gets a mail in their language, through the mail queue — once per application and deadline (deadline_reminders): a
 * moved start date moves the deadline and earns a new one; an application made that close to its deadline is
 * reminded at the next run; a cancelled application has no row left, a confirmed one is past its deadline.
 *
 * A periodic job like the retention clean-up: one instance at a time (db/jobLeases.ts), the first run a few seconds
 * after the start, then every DEADLINE_REMINDER_INTERVAL (app.ts).
 */
import { sql } from 'kysely';
import { addDays } from '../../common/subscriptionRules.js';
import type { Db } from '../db/index.js';
import { batchesAfterId } from '../db/batchesAfterId.js';
import { withJobLease } from '../db/jobLeases.js';
import type { OutgoingMail } from '../mail/mailer.js';
import { MAIL_JOB, type MailQueue } from '../mail/queue.js';
import { localeText, mailLanguage, renderMail } from '../mail/templates.js';
import { activatedManagers } from './admins.js';
import { businessCalendar } from './businessCalendar.js';
import { applicationStartsOn } from './classDeadlines.js';
import { recordWebhookEvent } from './webhookOutbox.js';

/** The job's lease: long enough for a run at a large provider's size, short enough that a dead instance's run is soon taken over. */
const LEASE_SECONDS = 15 * 60;

export interface DeadlineReminderDeps {
  db: Db;
  /** The reminders' mails are queued in the transaction that claims them. */
  mailQueue: Pick<MailQueue, 'enqueue'>;
  publicUrl: string;
  businessDays: number;
}

export type DeadlineReminderResult = { ran: false } | { ran: true; reminded: string[]; mails: number };

/**
 * The start dates that can have a deadline to remind of: from today (a later deadline is never before the start)
 * to far enough that `businessDays` business days plus the 2 of the deadline fit, holidays and closures included.
 */
const startWindow = (today: string, businessDays: number) => ({ from: today, to: addDays(today, 2 * (businessDays + 2) + 14) });

/**
 * Candidates read at once, each batch a turn of the event loop of its own: at a large provider's size a run has
 * ~12,700 applications starting within its window, which read at once held the loop ~50 ms.
 */
export const CANDIDATE_BATCH_ROWS = 500;

/** The deadlines an application's reminders or confirmations were claimed for, as Tokyo days: a run skips those without a transaction. */
const claimedDeadlines = (table: 'deadline_reminders' | 'webhook_confirmations') =>
  sql<string[]>`array(select to_char(claim.change_deadline, 'YYYY-MM-DD') from ${sql.table(table)} as claim where claim.subscription_id = corporate_subscriptions.id)`;

/**
 * The applications whose effective start date (their class's or their own) is in the window, through the start-date
 * indexes, CANDIDATE_BATCH_ROWS of them after the id `after`, with the deadlines already claimed for each.
 */
function candidates(db: Db, window: { from: string; to: string }, after: number) {
  const byOwnDate = db.selectFrom('corporateSubscriptions').select('id').where('startsOn', '>=', window.from).where('startsOn', '<=', window.to);
  const byClassDate = db
    .selectFrom('corporateSubscriptions')
    .innerJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
    .select('corporateSubscriptions.id')
    .where('projectClasses.startsOn', '>=', window.from)
    .where('projectClasses.startsOn', '<=', window.to);
  return db
    .selectFrom('corporateSubscriptions')
    .innerJoin('organizations', 'organizations.id', 'corporateSubscriptions.organizationId')
    .innerJoin('serviceGroups', 'serviceGroups.id', 'corporateSubscriptions.serviceGroupId')
    .select([
      'corporateSubscriptions.id',
      'corporateSubscriptions.requestCode',
      'corporateSubscriptions.organizationId',
      'organizations.corporationOfficialName',
      'organizations.gloplaIdName',
      'serviceGroups.name as serviceGroupName',
      applicationStartsOn.as('startsOn'),
      claimedDeadlines('deadline_reminders').as('remindedDeadlines'),
      claimedDeadlines('webhook_confirmations').as('confirmedDeadlines'),
    ])
    .where('corporateSubscriptions.id', 'in', byOwnDate.union(byClassDate))
    .where('corporateSubscriptions.id', '>', after)
    .orderBy('corporateSubscriptions.id')
    .limit(CANDIDATE_BATCH_ROWS)
    .execute();
}

type Candidate = Awaited<ReturnType<typeof candidates>>[number];

/** The managers of the organisation who get reminders: activated, reminders on. */
function recipients(db: Db, organizationId: number) {
  return activatedManagers(db, organizationId).where('admins.deadlineReminders', '=', true).execute();
}

async function serviceNames(db: Db, subscriptionId: number, language: 'ja' | 'en'): Promise<string> {
  const rows = await db
    .selectFrom('subscriptionServices')
    .innerJoin('services', 'services.id', 'subscriptionServices.serviceId')
    .select(['services.name', 'services.subtitle'])
    .where('subscriptionServices.subscriptionId', '=', subscriptionId)
    .orderBy('services.position')
    .orderBy('services.id')
    .execute();
  return rows.map((row) => (row.subtitle[language] ? `${row.name[language]} ${row.subtitle[language]}` : row.name[language])).join(', ');
}

const daysLeftText = (language: 'ja' | 'en', days: number) =>
  localeText(language, `mail.deadlineReminder.daysLeft.${days === 0 ? 'zero' : days === 1 ? 'one' : 'other'}`).replace('{{count}}', String(days));

/**
 * Claims the reminder of this deadline and queues a mail to each of the organisation's managers, in one transaction:
 * all of them and the claim, or nothing (the next run tries again); the mails queued (0: claimed before).
 */
function remind(deps: DeadlineReminderDeps, application: Candidate, changeDeadline: string, daysLeft: number): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('deadlineReminders')
      .values({ subscriptionId: application.id, changeDeadline })
      .onConflict((conflict) => conflict.doNothing())
      .returning('subscriptionId')
      .executeTakeFirst();
    if (!claimed) return 0;
    const deadline = { requestCode: application.requestCode, startsOn: application.startsOn, changeDeadline, businessDaysLeft: daysLeft };
    await recordWebhookEvent(trx, application.organizationId, 'deadline.approaching', deadline);
    const managers = await recipients(trx, application.organizationId);
    const services = new Map<'ja' | 'en', string>();
    for (const manager of managers) {
      const language = mailLanguage(undefined, manager.language);
      if (!services.has(language)) services.set(language, await serviceNames(trx, application.id, language));
      const link = `${deps.publicUrl}/subscription/${encodeURIComponent(application.requestCode)}?locale=${language}`;
      const mail = renderMail(
        'deadlineReminder',
        language,
        {
          organization: application.corporationOfficialName || application.gloplaIdName,
          requestCode: application.requestCode,
          serviceGroup: application.serviceGroupName[language],
          services: services.get(language)!,
          startsOn: application.startsOn,
          changeDeadline,
          daysLeft: daysLeftText(language, daysLeft),
        },
        link,
      );
      await deps.mailQueue.enqueue(MAIL_JOB, { ...mail, to: manager.email } satisfies OutgoingMail, trx);
    }
    return managers.length;
  });
}

/**
 * An application past its change deadline is confirmed (issue 46): its corporate_subscription.confirmed event, once
 * per application and deadline (webhook_confirmations is the claim), in the claim's transaction.
 */
function confirm(db: Db, application: Candidate, changeDeadline: string): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('webhookConfirmations')
      .values({ subscriptionId: application.id, changeDeadline })
      .onConflict((conflict) => conflict.doNothing())
      .returning('subscriptionId')
      .executeTakeFirst();
    if (claimed) await recordWebhookEvent(trx, application.organizationId, 'corporate_subscription.confirmed', { requestCode: application.requestCode, startsOn: application.startsOn, changeDeadline });
  });
}

/** One run: every application whose change deadline is near and not yet reminded of; `ran: false` while another instance runs it. */
export async function runDeadlineReminders(deps: DeadlineReminderDeps, today: string): Promise<DeadlineReminderResult> {
  const result = await withJobLease(deps.db, 'deadlineReminders', LEASE_SECONDS, async () => {
    const calendar = businessCalendar();
    const reminded: string[] = [];
    let mails = 0;
    const window = startWindow(today, deps.businessDays);
    for await (const batch of batchesAfterId((after) => candidates(deps.db, window, after), CANDIDATE_BATCH_ROWS)) {
      for (const application of batch) {
        const changeDeadline = calendar.changeDeadline(application.startsOn);
        if (today > changeDeadline) {
          if (!application.confirmedDeadlines.includes(changeDeadline)) await confirm(deps.db, application, changeDeadline);
          continue;
        }
        const daysLeft = calendar.businessDaysLeft(today, changeDeadline);
        if (daysLeft > deps.businessDays || application.remindedDeadlines.includes(changeDeadline)) continue;
        const sent = await remind(deps, application, changeDeadline, daysLeft);
        if (sent > 0) reminded.push(application.requestCode);
        mails += sent;
      }
    }
    return { ran: true, reminded, mails } as const;
  });
  return result ?? { ran: false };
}
