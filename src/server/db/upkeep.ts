/**
 * Autovacuum's work for the embedded database. PGlite runs PostgreSQL in one process without its background workers,
 * so nothing analyzes or vacuums its tables: a table filled after its last ANALYZE keeps the planner's guess of a few
 * rows, and the learners' CSV at 100,000 read each batch by a bitmap scan and a sort of every later row (4 s instead of
 * 1 s, issue 47). The portal runs it instead, table by table, by autovacuum's own rules (PostgreSQL's defaults); each
 * statement holds the embedded database while it runs, so only the tables past a threshold are touched.
 */
import { sql } from 'kysely';
import type { Db } from './index.js';

/** A table's upkeep: what autovacuum would do to it now. */
export interface TableUpkeep {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * The tables autovacuum would vacuum or analyze now (autovacuum_vacuum_threshold 50 + scale 0.2 of the rows for dead
 * rows, autovacuum_vacuum_insert_threshold 1000 + 0.2 for inserted ones, autovacuum_analyze_threshold 50 + 0.1 for
 * changed ones). The counts reach pg_stat a second or so after their transaction.
 */
export async function tablesDue(db: Db): Promise<TableUpkeep[]> {
  const { rows } = await sql<TableUpkeep>`
    select s.relname as "table",
      n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as vacuum,
      n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = current_schema()
    order by s.relname`.execute(db);
  return rows.filter((row) => row.vacuum || row.analyze);
}

/** Vacuums and analyzes the tables that are due, one statement each; the tables it touched. */
export async function upkeepEmbeddedDatabase(db: Db): Promise<TableUpkeep[]> {
  const due = await tablesDue(db);
  for (const { table, vacuum, analyze } of due) {
    if (vacuum) await sql`vacuum ${sql.raw(analyze ? '(analyze) ' : '')}${sql.id(table)}`.execute(db);
    else await sql`analyze ${sql.id(table)}`.execute(db);
  }
  return due;
}
