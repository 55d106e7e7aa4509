/** Writes as a bulk loader may make them: with the database's triggers off for the connection (session_replication_role). */
import { sql } from 'kysely';
import type { Db } from '../../../src/server/db/index.js';

export function withTriggersOff<T>(db: Db, work: (connection: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`set session_replication_role = replica`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`set session_replication_role = default`.execute(connection);
    }
  });
}
