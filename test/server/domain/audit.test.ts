/**
 * The trail's CSV export (domain/audit.ts), written a line at a time without csv-stringify since issue 47: each record
 * as csv-stringify wrote it from the page's answer of the entry. Entries are put in directly, with the values that are
 * hard to write: quotes, line breaks, formulas, JSON of every kind, personal fields, API clients.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import { auditEventsCsv, listAuditEvents } from '../../../src/server/domain/audit.js';
import { guardCsvCell } from '../../../src/server/domain/csv.js';
import { publicIdsOf } from '../../../src/server/domain/publicIds.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

type Change = { before?: unknown; after?: unknown };

/** Changes of every kind of value, field names JS orders first, personal fields, a change that is no object. */
const HARD_CHANGES: Array<Record<string, Change | string>> = [
  {},
  { role: { before: 'member', after: 'manager' } },
  { activated: { before: false, after: true }, requireSso: { before: true, after: false } },
  { note: { before: null, after: 'say "hi",\nthen\r\nleave\t\u0001\u001f \u2028 😀 \\ /' } },
  { count: { before: 0, after: -12345678901234 }, big: { before: 1e21, after: 1.5 }, tiny: { before: 1e-7, after: 0.000001 } },
  { services: { before: [1, 2], after: [{ id: 3, name: 'x' }] } },
  { '10': { before: 'a', after: 'b' }, name: { before: 'c', after: 'd' } },
  { email: { before: 'old@example.com', after: 'new@example.com' }, 'nameId #12': { before: 'A', after: 'B' }, phoneNumber: { before: '1', after: [2] } },
  { lockedUntil: { after: '2026-01-01T00:00:00.000Z' } },
  { formula: { before: '=1+1', after: '@x' } },
  { odd: 'not an object' },
  { 'a very long field name': { before: 'x'.repeat(300), after: '' } },
];

/** The record as csv-stringify wrote it before issue 47, from the page's answer of the entry (its changes in jsonb's order, as read). */
function referenceLine(event: Awaited<ReturnType<typeof listAuditEvents>>['auditEvents'][number]): string {
  const personal = new Set(['email', 'phoneNumber', 'nameId']);
  const changes = event.changes
    .map(({ field, before, after }) => `${field}: ${personal.has(field.split(' ')[0]!) ? '(personal data, not recorded)' : `${JSON.stringify(before)} → ${JSON.stringify(after)}`}`)
    .join('\n');
  const actor = event.actor.apiClientName === null ? event.actor.email : `API client "${event.actor.apiClientName}"`;
  const cells = [event.occurredAt, actor, event.action, event.target.type, event.target.id, event.target.label, changes];
  return stringify([cells.map((cell) => guardCsvCell(cell))], { record_delimiter: 'windows', quote_record_delimiter: true });
}

describe("The trail's CSV: each entry's line as csv-stringify wrote it (issue 47)", function () {
  this.timeout(60_000);
  const ids = publicIdsOf(randomBytes(32));
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
    for (const [index, changes] of HARD_CHANGES.entries()) {
      const client = index % 3 === 0 ? 'HR "sync", nightly' : null;
      await sql`insert into audit_events (organization_id, actor_admin_id, actor_email, actor_api_client_name, action, target_type, target_id, target_label, changes, occurred_at)
        values (1, ${client ? null : 7}, ${client ? '' : '+manager@example.com'}, ${client}, 'contact.updated', ${index % 2 ? 'contact' : 'ssoDomain'}, ${String(index + 1)},
          ${index % 4 ? `Label, "${index}"` : '=HYPERLINK("x")'}, ${JSON.stringify(changes)}::jsonb, now() - ${index} * interval '1 minute')`.execute(database.db);
    }
  });
  after(async () => database?.destroy());

  it('writes every entry as csv-stringify wrote it: quoting, the formula guard, JSON of every kind of value, personal fields, API clients', async () => {
    let text = '';
    for await (const chunk of auditEventsCsv(database.db, 1, {}, ids, 1000)) text += String(chunk);
    const { auditEvents } = await listAuditEvents(database.db, 1, {}, { limit: 100 }, ids);
    const expected = auditEvents.map(referenceLine);
    expect(text).to.equal(`\uFEFFoccurredAt,actorEmail,action,targetType,targetId,targetLabel,changes\r\n${expected.join('')}`);
  });
});
