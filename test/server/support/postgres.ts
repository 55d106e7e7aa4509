/** Finding a PostgreSQL for the tests that need one even when the suite runs on PGlite. */
import pg from 'pg';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** TEST_DATABASE_URL, or the default local PostgreSQL if it answers within 2 s; else undefined with the reason. */
export async function findPostgres(): Promise<{ url: string } | { url: undefined; reason: string }> {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url };
  } catch (error) {
    if (process.env.TEST_DATABASE_URL) throw error; // explicitly configured: a failure is a failure
    return { url: undefined, reason: `no PostgreSQL answers at ${url} (${(error as Error).message}); set TEST_DATABASE_URL` };
  } finally {
    await client.end().catch(() => undefined);
  }
}
