/**
 * Secrets the server generates once and keeps in the database, so every instance on the same database shares them
 * and a restart keeps them (DESIGN §1: nothing shared lives in process memory).
 */
import { randomBytes } from 'node:crypto';
import { onceByKey } from '../../common/onceByKey.js';
import type { Db } from '../db/index.js';

const cache = new WeakMap<Db, Map<string, Promise<string>>>();

/** The secret called `name`: created with 32 random bytes (base64url) by the first instance that asks. */
export function serverSecret(db: Db, name: string): Promise<string> {
  let secrets = cache.get(db);
  if (!secrets) cache.set(db, (secrets = new Map()));
  return onceByKey(secrets, name, async () => {
    // two instances asking at once: one insert wins, both read the winner
    await db
      .insertInto('serverSecrets')
      .values({ name, value: randomBytes(32).toString('base64url') })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await db.selectFrom('serverSecrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  });
}
