/**
 * Mail delivery through nodemailer: with SMTP_URL set, real SMTP; otherwise the outbox of DESIGN §4, a nodemailer
 * transport that keeps each mail in the database (table mails), where `/dev/mails` and `/dev/mails.json` show it
 * (non-production only).
 */
import nodemailer, { type Transport } from 'nodemailer';
import type MailMessage from 'nodemailer/lib/mailer/mail-message.js';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { RenderedMail } from './templates.js';

export interface OutgoingMail extends RenderedMail {
  to: string | string[];
  cc?: string | string[];
}

export interface Mailer {
  /** 'smtp' or 'outbox'. */
  readonly kind: 'smtp' | 'outbox';
  /** Sends (or keeps) one mail; rejects when the transport fails. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** One mail as `/dev/mails.json` shows it (DESIGN §4). */
export interface OutboxMail {
  id: number;
  to: string;
  cc?: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sentAt: string;
}

/** Every absolute http(s) URL in the text and HTML parts, in order of appearance, without duplicates. */
export function extractLinks(text: string, html: string): string[] {
  const decoded = html.replace(/&amp;/g, '&');
  const found = `${text}\n${decoded}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  return [...new Set(found)];
}

function addresses(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (Array.isArray(value)) return value.map(addresses).filter(Boolean).join(', ');
  if (typeof value === 'object' && 'address' in (value as object)) return String((value as { address: string }).address);
  return String(value);
}

/** The nodemailer transport that writes to the outbox table. */
export function outboxTransport(db: Db): Transport<{ id: number }> {
  return {
    name: 'outbox',
    version: '1',
    send(mail: MailMessage<{ id: number }>, callback: (error: Error | null, info: { id: number }) => void) {
      const { to, cc, subject, text, html } = mail.data;
      const textPart = typeof text === 'string' ? text : '';
      const htmlPart = typeof html === 'string' ? html : '';
      db.insertInto('mails')
        .values({
          recipients: addresses(to),
          cc: addresses(cc) || null,
          subject: subject ?? '',
          textPart,
          htmlPart,
          links: sql`cast(${JSON.stringify(extractLinks(textPart, htmlPart))} as jsonb)`,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then(({ id }) => callback(null, { id }), (error: Error) => callback(error, { id: 0 }));
    },
  };
}

export function createMailer(options: { db: Db; smtpUrl: string | undefined; from: string }): Mailer {
  const kind = options.smtpUrl ? 'smtp' : 'outbox';
  const transporter = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : nodemailer.createTransport(outboxTransport(options.db));
  return {
    kind,
    async send(mail) {
      await transporter.sendMail({
        from: options.from,
        to: mail.to,
        ...(mail.cc && mail.cc.length > 0 ? { cc: mail.cc } : {}),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    close() {
      transporter.close();
    },
  };
}

type MailRow = Awaited<ReturnType<ReturnType<typeof mailsQuery>['executeTakeFirstOrThrow']>>;

const mailsQuery = (db: Db) => db.selectFrom('mails').selectAll();

function toOutboxMail(row: MailRow): OutboxMail {
  return {
    id: row.id,
    to: row.recipients,
    ...(row.cc ? { cc: row.cc } : {}),
    subject: row.subject,
    text: row.textPart,
    html: row.htmlPart,
    links: row.links,
    sentAt: new Date(row.sentAt).toISOString(),
  };
}

/** The outbox, newest first. */
export async function listOutbox(db: Db, limit = 200): Promise<OutboxMail[]> {
  const rows = await mailsQuery(db).orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toOutboxMail);
}

export async function findOutboxMail(db: Db, id: number): Promise<OutboxMail | undefined> {
  const row = await mailsQuery(db).where('id', '=', id).executeTakeFirst();
  return row ? toOutboxMail(row) : undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Mail delivery (SMTP or the outbox), created by buildApp. */
    mailer: Mailer;
  }
}
