/**
 * Statements PostgreSQL parses and plans once per connection (named prepared statements) instead of on every call:
 * for the few that nearly every write runs, where planning costs more than running (the audit trail's insert took
 * ~0.08 ms to plan and ~0.01–0.02 ms to run: docs/performance.md). Declared by name and fixed text;
 * everything else stays unnamed, so schema changes and poolers see the usual protocol.
 *
 * PGlite runs the same text unnamed. Behind PgBouncer in transaction mode, use PgBouncer 1.21 or later with
 * `max_prepared_statements` set (README).
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** Statement text → its name. */
const names = new Map<string, string>();

/** A statement with fixed text and `$n` parameters; call it with the parameters to get a query for `executeQuery`. */
export function preparedStatement(name: string, text: string): (parameters: readonly unknown[]) => CompiledQuery {
  names.set(text, name);
  return (parameters) => CompiledQuery.raw(text, [...parameters]);
}

/** The most statements `preparedQuery` names: each is prepared on every connection that runs it. */
const MAX_DERIVED_NAMES = 64;
let derivedNames = 0;

/**
 * A statement whose text is made from a query builder's (fixed per caller, e.g. an insert and its trail entry): named
 * after a hash of its text the first time, as `preparedStatement` would name it. Past MAX_DERIVED_NAMES texts (a
 * caller whose text varies), the rest go unnamed.
 */
export function preparedQuery(prefix: string, text: string, parameters: readonly unknown[]): CompiledQuery {
  if (!names.has(text) && derivedNames < MAX_DERIVED_NAMES) {
    derivedNames += 1;
    names.set(text, `${prefix}_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`);
  }
  return CompiledQuery.raw(text, [...parameters]);
}

/** The pool as Kysely uses it, sending each declared statement by its name. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => preparingClient(await pool.connect()),
    end: () => pool.end(),
  };
}

function preparingClient(client: pg.PoolClient): PostgresPoolClient {
  // text only: the dialect is given no cursor, so Kysely never streams
  const query = (text: string, parameters: readonly unknown[]) => client.query({ name: names.get(text), text, values: [...parameters] });
  return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
}
