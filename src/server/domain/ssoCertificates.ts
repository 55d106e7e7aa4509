/**
 * The IdP's certificates (issue 45 item 5) and its metadata URL's daily refresh, one periodic job like the deadline
 * reminders: one instance at a time (db/jobLeases.ts), the first run a few seconds after the start, then every
 * SSO_CERTIFICATE_JOB_INTERVAL (app.ts).
 * - Refresh: a SAML connection's idp_metadata_url is fetched once a day through the guarded fetcher and its XML kept
 *   in the connection (`cachedMetadataXml` answers it, so a sign-in does not fetch it every time); a fetch that fails,
 *   or metadata that does not parse, keeps the last good XML and logs a warning.
 * - Reminders: each signing certificate of an active or paused connection that expires within 30 days, then within
 *   7, earns one mail to each activated manager of the organisation, in their language — once per certificate and
 *   threshold (sso_certificate_reminders). During a rollover only the expiring certificate is named.
 */
import type { Db } from '../db/index.js';
import { activatedManagers } from './admins.js';
import { withJobLease } from '../db/jobLeases.js';
import type { OutgoingMail } from '../mail/mailer.js';
import { MAIL_JOB, type MailQueue } from '../mail/queue.js';
import { localeText, mailLanguage, renderMail } from '../mail/templates.js';
import { parseIdpMetadata, type SigningCertificate } from '../saml/idpMetadata.js';

const LEASE_SECONDS = 15 * 60;
const DAY_MS = 24 * 3600 * 1000;
/** A metadata URL is fetched again when its last fetch is this old. */
export const REFRESH_AFTER_MS = DAY_MS;
/** The mails' thresholds, days before the certificate's expiry, nearest last. */
export const THRESHOLDS = [30, 7] as const;
export type Threshold = (typeof THRESHOLDS)[number];

export interface SsoCertificateDeps {
  db: Db;
  /** The mails are queued in the transaction that claims them. */
  mailQueue: Pick<MailQueue, 'enqueue'>;
  publicUrl: string;
  /** Fetches a metadata URL (app.ts: guardedFetch with the connection settings); tests name their own. */
  fetchMetadata: (url: string) => Promise<string>;
  warn: (detail: Record<string, unknown>, message: string) => void;
}

export interface SsoCertificateResult {
  ran: boolean;
  refreshed: number;
  refreshFailed: number;
  mails: number;
}

/** The metadata a sign-in reads from a connection's row: the pasted XML, else the last fetched from its current URL. */
export const keptMetadataXml = (row: { idpMetadataXml: string | null; idpMetadataUrl: string | null; idpMetadataFetchedXml: string | null; idpMetadataFetchedFrom: string | null }) =>
  row.idpMetadataXml ?? (row.idpMetadataUrl !== null && row.idpMetadataFetchedFrom === row.idpMetadataUrl ? row.idpMetadataFetchedXml : null);

/** The part of a connection the cache reads. */
export interface MetadataSource {
  id: string;
  idpMetadataXml: string | null;
  idpMetadataUrl: string | null;
}

/**
 * The IdP's metadata XML for a sign-in: the pasted XML, else the last good one fetched from the connection's current
 * URL; fetched now (and kept) only when none is kept yet — a connection saved since the last refresh.
 */
export async function cachedMetadataXml(db: Db, connection: MetadataSource, fetchMetadata: (url: string) => Promise<string>): Promise<string> {
  if (connection.idpMetadataXml) return connection.idpMetadataXml;
  if (!connection.idpMetadataUrl) throw new Error('the connection has no IdP metadata');
  const kept = await db
    .selectFrom('ssoConnections')
    .select('idpMetadataFetchedXml')
    .where('id', '=', connection.id)
    .where('idpMetadataFetchedFrom', '=', connection.idpMetadataUrl)
    .executeTakeFirst();
  if (kept?.idpMetadataFetchedXml) return kept.idpMetadataFetchedXml;
  const xml = await fetchMetadata(connection.idpMetadataUrl);
  parseIdpMetadata(xml);
  await keep(db, connection.id, connection.idpMetadataUrl, xml);
  return xml;
}

function keep(db: Db, id: string, url: string, xml: string, at: Date = new Date()) {
  return db
    .updateTable('ssoConnections')
    .set({ idpMetadataFetchedXml: xml, idpMetadataFetchedFrom: url, idpMetadataFetchedAt: at })
    .where('id', '=', id)
    // the URL may have changed meanwhile: this XML is then not its metadata
    .where('idpMetadataUrl', '=', url)
    .execute();
}

/** Fetches every metadata URL not fetched from for a day (or changed since); the ones refreshed and failed. */
async function refresh(deps: SsoCertificateDeps, now: Date): Promise<{ refreshed: number; failed: number }> {
  const due = await deps.db
    .selectFrom('ssoConnections')
    .select(['id', 'idpMetadataUrl', 'idpMetadataFetchedFrom', 'idpMetadataFetchedAt'])
    .where('protocol', '=', 'saml')
    .where('idpMetadataUrl', 'is not', null)
    .orderBy('id')
    .execute();
  let refreshed = 0;
  let failed = 0;
  for (const connection of due) {
    const url = connection.idpMetadataUrl!;
    const fresh = connection.idpMetadataFetchedFrom === url && connection.idpMetadataFetchedAt && now.getTime() - connection.idpMetadataFetchedAt.getTime() < REFRESH_AFTER_MS;
    if (fresh) continue;
    try {
      const xml = await deps.fetchMetadata(url);
      parseIdpMetadata(xml);
      await keep(deps.db, connection.id, url, xml, now);
      refreshed += 1;
    } catch (error) {
      // not marked as fetched: the next run tries again
      failed += 1;
      deps.warn({ connectionId: connection.id, err: error }, 'sso: IdP metadata refresh failed, the last good metadata kept');
    }
  }
  return { refreshed, failed };
}

/** The nearest threshold the certificate is within; undefined when it is further, or already expired. */
export function thresholdOf(notAfter: Date, now: Date): Threshold | undefined {
  const left = notAfter.getTime() - now.getTime();
  if (left <= 0) return undefined;
  return [...THRESHOLDS].reverse().find((days) => left <= days * DAY_MS);
}

/** The active and paused SAML connections with their metadata: the pasted XML, else the fetched one of the current URL. */
async function watchedConnections(db: Db) {
  const rows = await db
    .selectFrom('ssoConnections')
    .innerJoin('organizations', 'organizations.id', 'ssoConnections.organizationId')
    .select([
      'ssoConnections.id',
      'ssoConnections.organizationId',
      'ssoConnections.name',
      'ssoConnections.idpMetadataXml',
      'ssoConnections.idpMetadataUrl',
      'ssoConnections.idpMetadataFetchedXml',
      'ssoConnections.idpMetadataFetchedFrom',
      'organizations.corporationOfficialName',
      'organizations.gloplaIdName',
    ])
    .where('ssoConnections.protocol', '=', 'saml')
    .where('ssoConnections.state', 'in', ['on', 'paused'])
    .orderBy('ssoConnections.id')
    .execute();
  return rows.map((row) => ({ ...row, xml: keptMetadataXml(row) }));
}

type Watched = Awaited<ReturnType<typeof watchedConnections>>[number];

/** The signing certificates of the connection's metadata; none when it has none that parses (the page says why). */
export function signingCertificates(xml: string | null): SigningCertificate[] {
  if (!xml) return [];
  try {
    return parseIdpMetadata(xml).signingCertificates;
  } catch {
    return [];
  }
}

const daysLeftText = (language: 'ja' | 'en', days: number) =>
  localeText(language, `mail.ssoCertificateExpiring.daysLeft.${days === 1 ? 'one' : 'other'}`).replace('{{count}}', String(days));

/** `2026-12-18 09:00 UTC`: the certificate's notAfter, to the minute. */
const expiryText = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Claims the certificate's reminder at the threshold and queues each manager's mail, in one transaction; the mails queued (0: claimed before). */
function remind(deps: SsoCertificateDeps, connection: Watched, certificate: SigningCertificate, threshold: Threshold, now: Date): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('ssoCertificateReminders')
      .values({ connectionId: connection.id, fingerprint: certificate.fingerprint256, threshold })
      .onConflict((conflict) => conflict.doNothing())
      .returning('connectionId')
      .executeTakeFirst();
    if (!claimed) return 0;
    const managers = await activatedManagers(trx, connection.organizationId).execute();
    const daysLeft = Math.max(1, Math.ceil((certificate.notAfter.getTime() - now.getTime()) / DAY_MS));
    for (const manager of managers) {
      const language = mailLanguage(undefined, manager.language);
      const mail = renderMail(
        'ssoCertificateExpiring',
        language,
        {
          organization: connection.corporationOfficialName || connection.gloplaIdName,
          connection: connection.name,
          notAfter: expiryText(certificate.notAfter),
          daysLeft: daysLeftText(language, daysLeft),
          fingerprint: certificate.fingerprint256,
        },
        `${deps.publicUrl}/sso?locale=${language}`,
      );
      await deps.mailQueue.enqueue(MAIL_JOB, { ...mail, to: manager.email } satisfies OutgoingMail, trx);
    }
    return managers.length;
  });
}

/** One run: the metadata URLs due refreshed, then the certificates' reminders; `ran: false` while another instance runs it. */
export async function runSsoCertificates(deps: SsoCertificateDeps, now: Date = new Date()): Promise<SsoCertificateResult> {
  const result = await withJobLease(deps.db, 'ssoCertificates', LEASE_SECONDS, async () => {
    const { refreshed, failed } = await refresh(deps, now);
    let mails = 0;
    for (const connection of await watchedConnections(deps.db)) {
      for (const certificate of signingCertificates(connection.xml)) {
        const threshold = thresholdOf(certificate.notAfter, now);
        if (threshold !== undefined) mails += await remind(deps, connection, certificate, threshold, now);
      }
    }
    return { ran: true, refreshed, refreshFailed: failed, mails };
  });
  return result ?? { ran: false, refreshed: 0, refreshFailed: 0, mails: 0 };
}
