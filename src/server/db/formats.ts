/** Values PostgreSQL writes in the form the answers use, where parsing them in the portal only to write them again cost its time (issue 27). */
import { sql, type RawBuilder } from 'kysely';

/** A timestamp as Date#toISOString writes it (UTC, milliseconds cut, not rounded, as a parsed Date keeps them), like every other answer's timestamps. */
export const isoTimestamp = (column: string): RawBuilder<string | null> => sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
