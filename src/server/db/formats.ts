/** Values PostgreSQL writes in the form the answers use, where parsing them in the portal only to write them again cost its time (issue 27). */
import { sql, type Expression, type RawBuilder } from 'kysely';

/** A timestamp as Date#toISOString writes it (UTC, milliseconds cut, not rounded, as a parsed Date keeps them), like every other answer's timestamps. */
export const isoTimestamp = (column: string): RawBuilder<string | null> => sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A timestamp as PostgreSQL's own text of it in UTC (2026-11-24 18:58:31.123450+00), every microsecond kept, for a
 * cursor to read back: `::text` cost ~3.5 µs a row (the session's time zone), most of the trail export's time in the database.
 */
export const cursorTimestamp = (column: string | Expression<Date | string>): RawBuilder<string> =>
  sql<string>`to_char(${typeof column === 'string' ? sql.ref(column) : column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US"+00"')`;

/** A value as JSON text (PostgreSQL's to_json escapes strings as JSON.stringify does); `null` for SQL null. */
export const jsonValue = (value: Expression<unknown>): RawBuilder<string> => sql<string>`coalesce(to_json(${value})::text, 'null')`;

/**
 * The members of a JSON object as text, `"key":value,…` without braces, in the order given (each value JSON text:
 * jsonValue, jsonObject): written compactly, as the answers' serialiser writes them, where json_build_object spaces
 * its separators.
 */
export function jsonMembers(members: Record<string, RawBuilder<string>>): RawBuilder<string> {
  return sql<string>`concat(${sql.join(memberParts(members))})`;
}

/** A JSON object as text, its members in the order given (jsonMembers). */
export const jsonObject = (members: Record<string, RawBuilder<string>>): RawBuilder<string> => sql<string>`concat('{', ${sql.join(memberParts(members))}, '}')`;

/** The arguments of one concat() (one string made, where `||` makes one a member): each key's literal, then its value. */
const memberParts = (members: Record<string, RawBuilder<string>>) =>
  Object.entries(members).flatMap(([key, value], index) => [sql.lit(`${index === 0 ? '' : ','}${JSON.stringify(key)}:`), value]);
