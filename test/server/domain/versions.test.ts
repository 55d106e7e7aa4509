/**
 * Entity tags (issue 44, finding 11): a keyed hash of the table, the row's id and its version (xmin), never the
 * transaction number itself, which any tenant could watch the whole database's writes by. On the demo data: manager@
 * (1) and manager2@ both manage G0000001 (id 1); its learners and contacts were written by the one seeding transaction.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { demoManagers } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

/** 128 bits in base64url, quoted: nothing of a number in it. */
const OPAQUE_TAG = /^"[A-Za-z0-9_-]{22}"$/;

describe('Entity tags: a keyed hash of the table, the row and its version (issue 44)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let as: Awaited<ReturnType<typeof demoManagers>>;

  before(async () => {
    as = await demoManagers(ctx.app, ctx.db);
  });

  const get = async (path: string) => {
    const response = await ctx.app.inject({ url: `/api/v2/organizations/1/${path}`, headers: as.manager });
    expect(response.statusCode, response.body).to.equal(200);
    return response;
  };
  const learners = async (): Promise<Json[]> => (await get('users')).json().users;
  const xminsOf = async (table: string) =>
    (await sql<{ id: number; xmin: string }>`select id, xmin::text as xmin from ${sql.table(table)} where organization_id = 1 order by id`.execute(ctx.db)).rows;

  it('gives rows written in one transaction tags of their own', async () => {
    const written = await xminsOf('organization_users');
    expect(new Set(written.map((row) => row.xmin)).size, 'the seeding wrote the learners together').to.be.lessThan(written.length);
    const tags = (await learners()).map((learner) => learner.etag);
    expect(tags).to.have.length(written.length);
    expect(new Set(tags).size).to.equal(tags.length);
    const contacts = (await get('contacts')).json().contacts as Json[];
    expect(new Set(contacts.map((contact) => contact.etag)).size).to.equal(contacts.length);
  });

  it("shows no transaction number: each tag is SHA-256 under the server's key of the table, the row's id and its xmin, 128 bits in base64url", async () => {
    const [key] = (await ctx.db.selectFrom('serverSecrets').select('value').where('name', '=', 'etag_key').execute()).map((row) => row.value);
    expect(key, 'a key of its own').to.be.a('string').with.length.greaterThan(40);
    const tagOf = (table: string, id: number, xmin: string) =>
      `"${createHash('sha256').update(`${key}:${table}:${id}:${xmin}`).digest().subarray(0, 16).toString('base64url')}"`;
    const written = new Map((await xminsOf('organization_users')).map((row) => [row.id, row.xmin]));
    for (const learner of await learners()) {
      expect(learner.etag).to.match(OPAQUE_TAG);
      expect(learner.etag).to.equal(tagOf('organizationUsers', learner.id, written.get(learner.id)!));
    }
    const subscriptions = (await get('corporate_subscriptions')).json().corporate_subscriptions as Json[];
    expect(subscriptions.length).to.be.greaterThan(0);
    for (const subscription of subscriptions) expect(subscription.etag).to.match(OPAQUE_TAG);
  });

  it('changes the tag with every write, and a list row and the single answer show the same tag', async () => {
    const [learner] = await learners();
    const single = await get(`users/${learner!.id}`);
    expect(single.headers.etag).to.equal(learner!.etag);
    const edit = (nameId: string, ifMatch: string) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/v2/organizations/1/users/${learner!.id}`,
        headers: { ...as.manager, 'if-match': ifMatch },
        payload: { last_name: learner!.last_name, first_name: learner!.first_name, kana_last_name: learner!.kana_last_name, kana_first_name: learner!.kana_first_name, email: learner!.email, name_id: nameId },
      });
    const first = await edit('EMPTAG01', learner!.etag);
    expect(first.statusCode, first.body).to.equal(200);
    const second = await edit('EMPTAG02', first.headers.etag as string);
    expect(second.statusCode, second.body).to.equal(200);
    const tags = [learner!.etag, first.headers.etag, second.headers.etag];
    expect(new Set(tags).size, 'a tag a write').to.equal(3);
    expect((await learners()).find((row) => row.id === learner!.id)!.etag).to.equal(second.headers.etag);
    expect((await get(`users?per_page=1000`)).json().users.find((row: Json) => row.id === learner!.id).etag, 'a page of the list').to.equal(second.headers.etag);

    const [contact] = (await get('contacts')).json().contacts as Json[];
    expect((await get(`contacts/${contact!.id}`)).headers.etag).to.equal(contact!.etag);
    const [subscription] = (await get('corporate_subscriptions')).json().corporate_subscriptions as Json[];
    const detail = await get(`corporate_subscriptions/${subscription!.request_code}`);
    expect([detail.headers.etag, detail.json().corporate_subscription.etag]).to.deep.equal([subscription!.etag, subscription!.etag]);
  });
});
