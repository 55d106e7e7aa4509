/**
 * Lists in SQL with one parameter per list, whatever its length (issue 15 finding 1). `in (…)` and multi-row
 * `values (…), (…)` take one parameter per item, and the protocol counts a statement's parameters in 16 bits:
 * past 32767 PGlite's backend misreads the message and stays out of step for good, PostgreSQL answers 08P01.
 * An array travels as one parameter: `where id = any($1::int[])`, `insert … select * from unnest($1::int[], …)`.
 */
import { sql, type RawBuilder } from 'kysely';

/** `= anyInt(ids)`: the value is one of the integers (an empty list matches nothing). */
export function anyInt(values: readonly number[]): RawBuilder<number> {
  return sql<number>`any(${[...values]}::int[])`;
}

/** `<> allInt(ids)`: the value is none of the integers (an empty list excludes nothing). */
export function allInt(values: readonly number[]): RawBuilder<number> {
  return sql<number>`all(${[...values]}::int[])`;
}

/** `= anyText(texts)`: the value is one of the texts. */
export function anyText(values: readonly string[]): RawBuilder<string> {
  return sql<string>`any(${[...values]}::text[])`;
}
