/**
 * Concurrent starts (issue 11): two instances started at the same moment against one empty PostgreSQL database both
 * come up, the migrations and the demo seed run once, and the keys and secrets are generated once and shared.
 * PostgreSQL only (a throwaway database beside TEST_DATABASE_URL or the local test PostgreSQL, dropped afterwards);
 * skipped when none answers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { migrations } from '../../src/server/db/migrations/index.js';
import { demoAdmins, demoOrganizations, demoSso } from '../../src/server/db/seed/demoData.js';
import { serverSecret } from '../../src/server/domain/serverSecrets.js';
import { findPostgres } from './support/postgres.js';
import { TEST_ENV } from './support/testApp.js';

describe('two instances started at once on an empty PostgreSQL database', function () {
  this.timeout(120_000);
  let baseUrl: string | undefined;
  let databaseUrl: string;
  let name: string;
  let dataDir: string;
  const apps: FastifyInstance[] = [];

  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  before(async function () {
    const found = await findPostgres();
    if (!found.url) this.skip();
    baseUrl = found.url;
    name = `portal_concurrent_${process.pid}_${randomBytes(3).toString('hex')}`;
    await admin((client) => client.query(`create database "${name}"`));
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-concurrent-'));
  });

  after(async () => {
    await Promise.all(apps.map((app) => app.close()));
    if (baseUrl) await admin((client) => client.query(`drop database if exists "${name}" with (force)`));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('both come up; migrations, demo seed, keys and secrets happen once', async () => {
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: databaseUrl, SEED: 'demo', PUBLIC_URL: 'http://localhost:3000', DATA_DIR: dataDir });
    apps.push(...(await Promise.all([buildApp(config), buildApp(config)])));

    for (const app of apps) expect((await app.inject({ url: '/readyz' })).statusCode).to.equal(200);

    const count = async (table: string, where = '') => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>(`select count(*) as n from ${table} ${where}`)).rows[0]!.n);
      } finally {
        await client.end();
      }
    };
    expect(await count('kysely_migration')).to.equal(Object.keys(migrations).length);
    expect(await count('organizations')).to.equal(demoOrganizations.length);
    expect(await count('admins')).to.equal(demoAdmins.length + demoSso.users.length);
    expect(await count('idp_keys', "where kind = 'signing'")).to.equal(1);
    expect(await count('idp_keys', "where kind = 'cookie'")).to.equal(1);

    // the same signing key published by both, the same captcha secret and public ids' key generated once for both
    const [jwksA, jwksB] = await Promise.all(apps.map(async (app) => (await app.inject({ url: '/oidc/jwks' })).json()));
    expect(jwksA).to.deep.equal(jwksB);
    const [secretA, secretB] = await Promise.all(apps.map((app) => serverSecret(app.db, 'captcha_hmac')));
    expect(secretA).to.equal(secretB);
    const [idsA, idsB] = apps.map((app) => [1, 2, 3].map(app.publicIds.contact.toPublic));
    expect(idsA).to.deep.equal(idsB);
    // the captcha's secret and the public ids' key, each generated once for both (the demo's single-sign-on
    // connection is sealed at seeding with SECRET_KEY, which the settings give)
    expect(await count('server_secrets')).to.equal(2);
  });
});
