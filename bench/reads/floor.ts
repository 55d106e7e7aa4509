/**
 * The floor of the authenticated reads (bench/affiliations.ts), in a process of its own as the portal is: bare
 * Fastify running the portal's own compiled SQL through a `pg` pool of the portal's default size. Started with
 * FLOOR_DATABASE_URL, ORGANIZATION_ID, ADMIN_ID and GLOPLA_ID; prints its URL as its first line of output.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { createDatabase } from '../../src/server/db/index.js';
import { affiliationQuery } from '../../src/server/domain/admins.js';
import { organizationAffiliationsSql } from '../../src/server/domain/memberships.js';

const POOL_SIZE = 10; // the portal's default (db/index.ts)
const env = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is not set`); })();
const databaseUrl = env('FLOOR_DATABASE_URL');
const organizationId = Number(env('ORGANIZATION_ID'));
const adminId = Number(env('ADMIN_ID'));

// kysely only compiles the portal's queries here; the floor runs them through its own pool
const compiler = createDatabase({ databaseUrl, poolSize: 1 });
const list = organizationAffiliationsSql(compiler.db, organizationId, { adminId, gloplaId: env('GLOPLA_ID') });
const own = affiliationQuery(compiler.db).where('affiliations.adminId', '=', adminId).orderBy('organizations.gloplaId').compile();
await compiler.close();

const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
// as the portal's pool does (db/index.ts): an idle client's lost connection must not end the process
pool.on('error', (error) => console.warn(`floor pool: ${error.message}`));
const app = Fastify();
// the organisation's list: each row is the affiliation PostgreSQL wrote in wire form, as the portal sends it
app.get('/affiliations', async (_request, reply) => {
  const { rows } = await pool.query<{ json: string }>(list.sql, list.parameters as unknown[]);
  return reply.type('application/json; charset=utf-8').send(`{"affiliations":[${rows.map((row) => row.json).join(',')}]}`);
});
app.get('/me/affiliations', async () => ({ affiliations: (await pool.query(own.sql, own.parameters as unknown[])).rows }));
console.log(await app.listen({ host: '127.0.0.1', port: 0 }));
