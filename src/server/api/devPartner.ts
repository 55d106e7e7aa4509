/**
 * The demo partner product at /dev/partner (issue 9 §4), in demo mode only (app.ts registers it with the other /dev
 * pages; elsewhere 404): the authUrl of the demo data's `demo-partner`. It does what README 'Single-sign-on gateway'
 * asks of a real partner, with its own few lines rather than the portal's signing code:
 *   1. rebuild the canonical string from the query and its own code, HMAC-SHA256 it with its secret, compare with gsg;
 *   2. refuse when now ≥ ghs (epoch seconds);
 *   3. call POST /api/v2/single-sign-on/verify with HTTP Basic code:secret, which accepts the tokens once;
 * and shows who arrived (gloplaId, e-mail, language, the state it got back) or why it refused them. A server-rendered
 * page without script or inline style (the Content-Security-Policy forbids both).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { findPartnerProduct } from '../domain/singleSignOn.js';
import { escapeHtml } from '../mail/templates.js';

export const DEV_PARTNER_PATH = '/dev/partner';
export const DEMO_PARTNER_CODE = 'demo-partner';

type Query = Partial<Record<'guq' | 'gss' | 'gui' | 'gsg' | 'ghs' | 'gul' | 'goi' | 'projectId' | 'projectCode', string>>;

const REFUSALS: Record<string, string> = {
  missing: 'The request carries no single-sign-on tokens.',
  bad_signature: 'Bad signature: gsg is not the signature of these fields.',
  expired: 'Expired: the tokens are older than they may be.',
  replayed: 'Replayed: these tokens have been used before.',
  unknown: 'Unknown token: the portal did not issue it.',
  partner: 'The demo partner is not set up (no partner product demo-partner).',
};

const VERIFY_REFUSAL: Record<string, string> = {
  invalid_signature: 'bad_signature',
  token_expired: 'expired',
  token_used: 'replayed',
  invalid_token: 'unknown',
};

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><link rel="icon" href="/favicon.png"><title>${escapeHtml(title)}</title></head>\n<body>\n<main>\n<h1>${escapeHtml(title)}</h1>\n${body}\n</main>\n</body>\n</html>\n`;
}

function rows(entries: Array<[string, string | undefined]>): string {
  const items = entries.filter(([, value]) => value !== undefined).map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value!)}</dd>`);
  return `<dl>\n${items.join('\n')}\n</dl>`;
}

export const devPartnerRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: Query }>(DEV_PARTNER_PATH, { schema: { hide: true } }, async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const query = request.query;
    const refuse = (reason: string) =>
      reply.code(403).send(page('Demo partner: refused', `<p id="refusal" data-reason="${escapeHtml(reason)}">${escapeHtml(REFUSALS[reason] ?? reason)}</p>`));

    const product = await findPartnerProduct(app.db, DEMO_PARTNER_CODE);
    if (!product) return refuse('partner');
    const { guq, gss, gui, gsg, ghs, gul, goi } = query;
    if (!guq || gss === undefined || !gui || !gsg || !ghs || !gul || !goi) return refuse('missing');

    // 1. the signature, over the canonical string of README 'Single-sign-on gateway'
    const canonical = ['gsso1', DEMO_PARTNER_CODE, guq, gui, goi, gul, ghs, gss].join('\n');
    const expected = Buffer.from(createHmac('sha256', product.secret).update(canonical, 'utf8').digest('base64url'));
    const presented = Buffer.from(gsg);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return refuse('bad_signature');
    // 2. the expiry
    if (!/^\d+$/.test(ghs) || Math.floor(Date.now() / 1000) >= Number(ghs)) return refuse('expired');
    // 3. one-time use: the portal's verify call
    const verified = await app.inject({
      method: 'POST',
      url: '/api/v2/single-sign-on/verify',
      headers: { authorization: `Basic ${Buffer.from(`${product.code}:${product.secret}`).toString('base64')}` },
      payload: { guq, gss, gui, goi, gul, ghs, gsg },
    });
    if (verified.statusCode !== 200) {
      const code = (verified.json() as { error?: string }).error ?? '';
      return refuse(VERIFY_REFUSAL[code] ?? code);
    }
    const arrival = verified.json() as { gui: string; goi: string; gul: string; email: string };
    return reply.send(
      page(
        'Demo partner: signed in',
        rows([
          ['gloplaId', arrival.goi],
          ['E-mail', arrival.email],
          ['Language', arrival.gul],
          ['Admin id', arrival.gui],
          ['State (gss)', gss],
          ['projectId', query.projectId],
          ['projectCode', query.projectCode],
        ]),
      ),
    );
  });
};
