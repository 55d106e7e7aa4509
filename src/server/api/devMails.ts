/**
 * The outbox of DESIGN §4, in demo mode only (config.demo: a loopback PUBLIC_URL or DEMO=on; never in production):
 * - GET /dev/mails: the kept mails, newest first, as an HTML page (recipients, subject, time, links, text part);
 * - GET /dev/mails.json: `[{id, to, subject, text, html, links, sentAt}]` (and `cc` when the mail had one);
 * - GET /dev/mails/:id.html: one mail's HTML part.
 * Without SMTP_URL every mail lands here; with it, nothing does (the page says so).
 */
import type { FastifyPluginAsync } from 'fastify';
import { findOutboxMail, listOutbox, type OutboxMail } from '../mail/mailer.js';
import { escapeHtml } from '../mail/templates.js';

function mailSection(mail: OutboxMail): string {
  const links = mail.links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join('\n');
  return [
    `<article id="mail-${mail.id}">`,
    `<h2>${escapeHtml(mail.subject)}</h2>`,
    '<dl>',
    `<dt>To</dt><dd>${escapeHtml(mail.to)}</dd>`,
    ...(mail.cc ? [`<dt>Cc</dt><dd>${escapeHtml(mail.cc)}</dd>`] : []),
    `<dt>Sent</dt><dd><time datetime="${mail.sentAt}">${mail.sentAt}</time></dd>`,
    `<dt>HTML part</dt><dd><a href="/dev/mails/${mail.id}.html">/dev/mails/${mail.id}.html</a></dd>`,
    '</dl>',
    links ? `<h3>Links</h3>\n<ul>\n${links}\n</ul>` : '',
    `<pre>${escapeHtml(mail.text)}</pre>`,
    '</article>',
  ].join('\n');
}

export const devMailsRoutes: FastifyPluginAsync = async (app) => {
  const note = app.mailer.kind === 'smtp' ? '<p>SMTP_URL is set: mails are sent by SMTP and not kept here.</p>' : '';

  // mails go out after the answers (a queue): what is queued is delivered before the outbox is shown
  const outbox = async () => {
    await app.mailQueue.drain();
    return listOutbox(app.db);
  };

  app.get('/dev/mails', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await outbox();
    const body = mails.length > 0 ? mails.map(mailSection).join('\n<hr>\n') : '<p>No mails yet.</p>';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Outbox</title></head>\n<body>\n<h1>Outbox (${mails.length})</h1>\n${note}\n<p><a href="/dev/mails.json">/dev/mails.json</a></p>\n${body}\n</body>\n</html>\n`,
      );
  });

  app.get('/dev/mails.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return outbox();
  });

  app.get<{ Params: { file: string } }>('/dev/mails/:file', { schema: { hide: true } }, async (request, reply) => {
    const match = /^(\d+)\.html$/.exec(request.params.file);
    if (match) await app.mailQueue.drain();
    const mail = match ? await findOutboxMail(app.db, Number(match[1])) : undefined;
    if (!mail) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(mail.html);
  });
};
