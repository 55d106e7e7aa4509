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
import { CompiledQuery, type Compilable, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Db } from './index.js';
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

/**
 * A query built and compiled once per database and shape, then run with the caller's values (for the large queries of
 * frequent lists, whose building and compiling cost about as much CPU as reading their answer): `build` gets the shape
 * and `standIns` for the values, and each parameter of the compiled query equal to a stand-in takes the caller's value
 * for it. A stand-in must reach the query as it is (never computed with) and be no value the query holds otherwise;
 * a shape may leave some out. Unnamed unless `name` is given (a query of one shape), so PostgreSQL plans it for the
 * values given: name only a query whose best plan does not depend on them (a named statement's generic plan, from its sixth run, read the
 * application list's page with its bounds unknown: 400 ms instead of 20).
 */
export function compiledOnce<Shape, Values extends Record<string, unknown>, Row>(
  standIns: Values,
  build: (db: Db, shape: Shape, values: Values) => Compilable<Row>,
  name?: string,
): (db: Db, shape: Shape, values: Values) => CompiledQuery<Row> {
  const compiled = new WeakMap<Db, Map<string, CompiledQuery<Row>>>();
  const slotNames = Object.keys(standIns);
  return (db, shape, values) => {
    let byShape = compiled.get(db);
    if (!byShape) compiled.set(db, (byShape = new Map()));
    const shapeKey = JSON.stringify(shape);
    let query = byShape.get(shapeKey);
    if (!query) {
      query = build(db, shape, standIns).compile();
      if (name !== undefined && byShape.size > 0) throw new Error(`compiledOnce: the named query ${name} has more than one shape`);
      if (name !== undefined) names.set(query.sql, name);
      byShape.set(shapeKey, query);
    }
    const slots = new Map(slotNames.map((slot) => [standIns[slot], values[slot]]));
    return CompiledQuery.raw(query.sql, query.parameters.map((parameter) => (slots.has(parameter) ? slots.get(parameter) : parameter))) as CompiledQuery<Row>;
  };
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
