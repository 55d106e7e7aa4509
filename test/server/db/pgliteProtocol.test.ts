/**
 * PGlite's protocol parser as patches/ leaves it (issue 47): each text field decoded from a view of its message, not
 * from a copy, and still read whole — multi-byte text, empty strings, nulls and a field larger than a message chunk.
 * The reads run on PostgreSQL too with TEST_DATABASE_URL.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe('server/db PGlite protocol (patches/@electric-sql+pglite)', function () {
  this.timeout(60_000);

  it('is patched in both builds: no field copied before it is decoded', async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (const file of ['chunk-JOTQFPBW.js', 'index.cjs']) {
      const code = await readFile(path.join(dist, file), 'utf8');
      expect(code, file).not.to.include('.decode(this.bytes(');
      expect(code, file).to.match(/string\(\w\)\{let \w=\w\(this,\w+\)\.decode\(new Uint8Array\(/);
    }
  });

  describe('fields read whole', () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(async () => database.destroy());

    it('reads multi-byte, empty, null and large fields, row after row', async () => {
      const large = '学習者😀'.repeat(40_000);
      const { rows } = await sql<{ n: number; text: string | null; empty: string; large: string }>`select n, case when n % 3 = 0 then null else '学習' || n || '😀' end as text,
        '' as empty, case when n <= 3 then ${large}::text else '' end as large from generate_series(1, 300) as n`.execute(database.db);
      expect(rows).to.have.length(300);
      for (const row of rows) {
        expect(row.text).to.equal(row.n % 3 === 0 ? null : `学習${row.n}😀`);
        expect(row.empty).to.equal('');
        expect(row.large).to.equal(row.n <= 3 ? large : '');
      }
    });
  });
});
