/**
 * The bounds gate (issue 15 finding 1): every list in the JSON body of every write route (read from the OpenAPI
 * document, so a new route is covered without a change here) has a maxItems; a body holding the largest list the
 * schema allows, and one item more, is answered without a 5xx; and afterwards the portal still signs in and reads
 * the database. On PGlite, or on PostgreSQL with TEST_DATABASE_URL. A 33,000-item list once left PGlite answering
 * every later query wrongly (a statement's parameters are counted in 16 bits), and PostgreSQL answered 503.
 */
import http from 'node:http';
import { expect } from 'chai';
import { addDays, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { bearer, signIn } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { startTestServer, useTestApp, type TestServer } from '../support/testApp.js';

type Json = Record<string, unknown>;
type Schema = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  body: Schema;
}

/** A list in a body: the wire keys leading to it and its schema. */
interface List {
  at: string[];
  schema: Schema;
}

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];

const learner = (index: number) => ({ last_name: '山田', first_name: '太郎', kana_last_name: 'やまだ', kana_first_name: 'たろう', email: `learner${index}@example.com` });
/** G0000001's first contact and billing contact (stored as 1) as the API shows them: known once the app runs. */
const firstContacts = { billing_contact_id: 0, contact_id: 0 };
/** A valid newhodaiplus application (group 9, at most 1000 learners) of G0000001, whose lists are then filled. */
const application = () => ({
  service_group_id: 9,
  service_ids: [9],
  admin_ids: [1],
  users: [learner(0)],
  starts_on: addDays(businessCalendar().earliestStartsOn(tokyoToday()), 14),
  ...firstContacts,
  project_class_id: 0,
});

/** Where a route's body is otherwise valid, so that its lists reach the database; other routes get `{}` and '1' for every path id. */
const VALID: Record<string, { url?: string; body: () => Json }> = {
  'post /api/v2/organizations/{orgId}/corporate_subscriptions': { url: '/api/v2/organizations/1/corporate_subscriptions?dryrun=true', body: application },
  'patch /api/v2/organizations/{orgId}/corporate_subscriptions/{requestCode}': { url: '/api/v2/organizations/1/corporate_subscriptions/A000000104?dryrun=true', body: application },
};

/** Items by the list's key; otherwise one made from the items' schema. */
const ITEMS: Record<string, (index: number) => unknown> = { users: learner };

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  const ref = schema.$ref as string | undefined;
  return ref ? components[ref.replace('#/components/schemas/', '')]! : schema;
}

/** Every array schema under a body schema (properties, items, combinators, conditionals). */
function listsOf(schema: Schema, components: Record<string, Schema>, at: string[] = []): List[] {
  const resolved = resolve(schema, components);
  const inner = [
    ...Object.entries((resolved.properties ?? {}) as Record<string, Schema>).flatMap(([key, property]) => listsOf(property, components, [...at, key])),
    ...[...(resolved.oneOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.allOf ?? []), ...[resolved.then, resolved.else].filter(Boolean)].flatMap((branch: Schema) => listsOf(branch, components, at)),
    ...(resolved.items ? listsOf(resolved.items as Schema, components, [...at, '0']) : []),
  ];
  const isList = resolved.type === 'array' || (Array.isArray(resolved.type) && resolved.type.includes('array'));
  return isList ? [{ at, schema: resolved }, ...inner] : inner;
}

/** An item of the list: distinct integers, text, or an object with its required keys. */
function itemOf(schema: Schema, index: number): unknown {
  const type = [schema.type ?? 'string'].flat()[0] as string;
  if (type === 'integer' || type === 'number') return index + 1;
  if (type === 'boolean') return true;
  if (type === 'object') return Object.fromEntries(((schema.required ?? []) as string[]).map((key) => [key, itemOf(schema.properties?.[key] ?? {}, index)]));
  if (type === 'array') return [];
  return `x${index}`;
}

function withList(body: Json, at: string[], items: unknown[]): Json {
  const copy = structuredClone(body);
  let target: any = copy;
  for (const key of at.slice(0, -1)) target = target[key] ??= {};
  target[at.at(-1)!] = items;
  return copy;
}

describe('bounded lists in every request body (issue 15 finding 1)', function () {
  this.timeout(120_000);
  const ctx = useTestApp({ env: { SEED: 'demo', MAIL_RATE_LIMIT_PER_CLIENT: '1000000', MAIL_RATE_LIMIT_PER_EMAIL: '1000000' }, mailQueueWorker: false });
  let operations: Operation[];
  let components: Record<string, Schema>;
  let manager: Record<string, string>;

  before(async () => {
    const document = ctx.app.swagger() as unknown as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
    components = document.components.schemas;
    operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/'))
      .flatMap(([path, methods]) =>
        Object.entries(methods)
          .filter(([method, operation]) => WRITE_METHODS.includes(method) && operation.requestBody?.content?.['application/json'])
          .map(([method, operation]) => ({ method, path, body: operation.requestBody.content['application/json'].schema as Schema })),
      );
    // the services' last start dates are lifted so that the application's start date is in the window
    await ctx.db.updateTable('services').set({ lastStartsOn: null }).execute();
    manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    Object.assign(firstContacts, { billing_contact_id: ctx.app.publicIds.billingContact.toPublic(1), contact_id: ctx.app.publicIds.contact.toPublic(1) });
  });

  it('knows the routes with lists', () => {
    const withLists = operations.filter((operation) => listsOf(operation.body, components).length > 0).map((operation) => `${operation.method} ${operation.path}`);
    expect(withLists).to.include.members(Object.keys(VALID)).and.include('post /api/v2/organizations/{orgId}/users/bulk_update');
  });

  it('every list has a maxItems', () => {
    const unbounded = operations.flatMap((operation) =>
      listsOf(operation.body, components)
        .filter((list) => typeof list.schema.maxItems !== 'number')
        .map((list) => `${operation.method} ${operation.path} ${list.at.join('.')}`),
    );
    expect(unbounded).to.deep.equal([]);
  });

  it('answers the largest list and one item more without a 5xx, and the portal still signs in', async () => {
    for (const operation of operations) {
      const valid = VALID[`${operation.method} ${operation.path}`];
      const url = valid?.url ?? operation.path.replace(/\{[^}]+\}/g, '1');
      for (const list of listsOf(operation.body, components)) {
        if (list.at.includes('0') || typeof list.schema.maxItems !== 'number') continue; // lists inside lists are bounded by the outer one
        const key = list.at.at(-1)!;
        for (const count of [list.schema.maxItems as number, (list.schema.maxItems as number) + 1]) {
          const items = Array.from({ length: count }, (_, index) => (ITEMS[key] ?? ((i: number) => itemOf(list.schema.items ?? {}, i)))(index));
          const payload = withList(valid?.body() ?? {}, list.at, items);
          const response = await ctx.app.inject({ method: operation.method.toUpperCase() as 'POST', url, headers: manager, payload });
          const what = `${operation.method} ${url} ${list.at.join('.')} × ${count}`;
          expect(response.statusCode, `${what} → ${response.body.slice(0, 300)}`).to.be.below(500);
          if (count > (list.schema.maxItems as number)) expect(response.statusCode, what).to.be.within(400, 499);
        }
      }
    }
    const session = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, choose: 'G0000001' });
    const me = await ctx.app.inject({ url: '/api/v2/organizations/1/corporate_subscriptions', headers: bearer(session.tokens.access_token) });
    expect(me.statusCode, me.body).to.equal(200);
  });

  it('stores the largest application the schema allows', async () => {
    const users = Array.from({ length: 1000 }, (_, index) => learner(index));
    const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/corporate_subscriptions', headers: manager, payload: { ...application(), users } });
    expect(response.statusCode, response.body.slice(0, 300)).to.equal(201);
    expect(response.json().corporate_subscription.users).to.have.length(1000);
  });
});

/** A POST whose body is written a chunk at a time, as long as the server reads it; `answer` settles when the server answers. */
function slowUpload(url: string, headers: Record<string, string>, chunks: Iterable<string>): { answer: Promise<number>; uploaded: () => boolean; abort: () => void } {
  let done = false;
  const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' } });
  const answer = new Promise<number>((resolve, reject) => {
    request.once('response', (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.once('error', reject);
  });
  const iterator = chunks[Symbol.iterator]();
  const writeMore = (): void => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      if (request.destroyed) return;
      if (!request.write(next.value)) return void request.once('drain', writeMore);
    }
    done = true;
    request.end();
  };
  writeMore();
  return { answer, uploaded: () => done, abort: () => request.destroy() };
}

/** `{"users":[{},{},…]}` of about `bytes`, in 64 KiB chunks. */
function* emptyRows(bytes: number): Generator<string> {
  yield '{"users":[{}';
  const chunk = ',{}'.repeat(64 * 1024 / 3);
  for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
  yield ']}';
}

describe('manager-only bodies (issue 25 finding 3)', function () {
  this.timeout(60_000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ env: { SEED: 'demo' } });
  });
  after(async () => server?.close());

  it('answers two 12 MB bulk updates of a member 403 before their bodies are uploaded, while /healthz keeps answering', async () => {
    const member = bearer(await accessToken(server.app, { sub: '2' }));
    const uploads = [1, 2].map(() => slowUpload(`${server.url}/api/v2/organizations/1/users/bulk_update`, member, emptyRows(12 * 1000 * 1000)));
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).to.equal(200);
      // the answers come while the bodies are still on their way: nothing waited for them, nothing parsed them
      expect(await Promise.all(uploads.map((upload) => upload.answer))).to.deep.equal([403, 403]);
      expect(uploads.map((upload) => upload.uploaded())).to.deep.equal([false, false]);
    } finally {
      for (const upload of uploads) upload.abort();
    }
  });
});
