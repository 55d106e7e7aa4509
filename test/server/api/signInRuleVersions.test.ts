/**
 * The organisation's sign-in rule is versioned like its other records (issue 44, finding 10; issue 28): GET answers
 * its ETag (and `etag`), a PUT with If-Match changes it only on that version, else 412 with who changed it and when,
 * and under IF_MATCH_REQUIRED a PUT without If-Match answers 428. On the demo data: manager@ (1) and manager2@ both
 * manage G0000001 (id 1).
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

const URL = '/api/v2/organizations/1/sign_in_rule';
const TWO_STEPS = ['pwd', 'otp', 'mfa'];

describe("Versions of an organisation's sign-in rule: ETag, If-Match, 412 (issue 44)", function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let manager: Record<string, string>;
  let manager2: Record<string, string>;

  before(async () => {
    const second = await ctx.db.selectFrom('admins').select('id').where('email', '=', 'manager2@example.com').executeTakeFirstOrThrow();
    manager = bearer(await accessToken(ctx.app, { sub: '1', amr: TWO_STEPS }));
    manager2 = bearer(await accessToken(ctx.app, { sub: String(second.id), amr: TWO_STEPS }));
  });

  const read = async (): Promise<Json> => {
    const response = await ctx.app.inject({ url: URL, headers: manager });
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json().etag, 'the ETag and etag agree').to.equal(response.headers.etag);
    return response.json();
  };
  const put = (headers: Record<string, string>, twoStepRequired: boolean, ifMatch?: string) =>
    ctx.app.inject({ method: 'PUT', url: URL, headers: { ...headers, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) }, payload: { two_step_required: twoStepRequired } });

  it('answers the rule with a strong ETag; a change on it answers the next version, the one GET shows then', async () => {
    const seen = await read();
    expect(seen).to.deep.equal({ two_step_required: false, etag: seen.etag });
    expect(seen.etag).to.match(/^"[A-Za-z0-9_-]{22}"$/);
    const on = await put(manager, true, seen.etag);
    expect(on.statusCode, on.body).to.equal(200);
    expect(on.json()).to.deep.equal({ two_step_required: true, etag: on.headers.etag });
    expect(on.headers.etag).to.not.equal(seen.etag);
    expect(await read()).to.deep.equal({ two_step_required: true, etag: on.headers.etag });
    const off = await put(manager, false, on.headers.etag as string);
    expect(off.statusCode, off.body).to.equal(200);
    expect(off.headers.etag).to.not.equal(on.headers.etag);
  });

  it('refuses a change made on a version another manager has changed since (412, who and when), and keeps their change', async () => {
    const seen = await read(); // both managers read this version
    const byTwo = await put(manager2, !seen.two_step_required, seen.etag);
    expect(byTwo.statusCode, byTwo.body).to.equal(200);
    // manager@ means to leave the rule as they saw it
    const byOne = await put({ ...manager, 'accept-language': 'en' }, seen.two_step_required, seen.etag);
    expect(byOne.statusCode).to.equal(412);
    const refusal = byOne.json();
    expect(refusal).to.deep.include({ error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' } });
    expect(Date.now() - Date.parse(refusal.changed_at)).to.be.within(0, 60_000);
    expect(await read()).to.deep.equal({ two_step_required: !seen.two_step_required, etag: byTwo.headers.etag });
  });

  it('reads If-Match as the other records do: * and a list holding the version match, a weak tag never does, garbage is a bad request', async () => {
    const seen = await read();
    expect((await put(manager, seen.two_step_required, `W/${seen.etag}`)).statusCode, 'weak').to.equal(412);
    expect((await put(manager, seen.two_step_required, '"0", "1"')).statusCode, 'a list without it').to.equal(412);
    expect((await put(manager, seen.two_step_required, `"0", ${seen.etag}`)).statusCode, 'a list with it').to.equal(200);
    expect((await put(manager, seen.two_step_required, '*')).statusCode, 'any').to.equal(200);
    const garbage = await put(manager, seen.two_step_required, '"open');
    expect(garbage.statusCode).to.equal(400);
    expect(garbage.json()).to.deep.equal({ error: 'bad_request' });
    expect((await put(manager, seen.two_step_required)).statusCode, 'no If-Match: as SPEC clients send').to.equal(200);
  });

  it('refuses a change another manager made between the check of the version and the write (PostgreSQL: two connections)', async function () {
    if (!process.env.TEST_DATABASE_URL) this.skip(); // PGlite has one connection: nothing runs between the two
    const seen = await read();
    const other = await ctx.db.startTransaction().execute();
    let pending: ReturnType<typeof put> | undefined;
    try {
      await other.updateTable('organizations').set({ twoStepRequired: !seen.two_step_required, updatedAt: new Date() }).where('id', '=', 1).execute();
      // the version is still the one seen (the other change is not committed): the check passes, the write waits for the row
      pending = put(manager, seen.two_step_required, seen.etag);
      for (let waiting = 0; waiting === 0; ) {
        await new Promise((resolve) => setImmediate(resolve));
        const { rows } = await sql<{ waiting: string }>`select count(*) as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db);
        waiting = Number(rows[0]!.waiting);
      }
    } finally {
      await other.commit().execute();
    }
    const answer = await pending!;
    expect(answer.statusCode, answer.body).to.equal(412);
    expect((await read()).two_step_required, "the other manager's change stays").to.equal(!seen.two_step_required);
  });
});

describe('IF_MATCH_REQUIRED=on: a change of the sign-in rule without If-Match answers 428 (issue 44)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo', IF_MATCH_REQUIRED: 'on' } });

  it('refuses a change naming no version, and takes one that does', async () => {
    const manager = bearer(await accessToken(ctx.app, { sub: '1', amr: TWO_STEPS }));
    const unconditional = await ctx.app.inject({ method: 'PUT', url: URL, headers: manager, payload: { two_step_required: true } });
    expect(unconditional.statusCode).to.equal(428);
    expect(unconditional.json()).to.deep.equal({ error: 'precondition_required' });
    const { etag } = (await ctx.app.inject({ url: URL, headers: manager })).json();
    const conditional = await ctx.app.inject({ method: 'PUT', url: URL, headers: { ...manager, 'if-match': etag }, payload: { two_step_required: true } });
    expect(conditional.statusCode, conditional.body).to.equal(200);
    expect(conditional.json().two_step_required).to.equal(true);
  });
});
