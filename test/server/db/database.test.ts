/** The embedded database keeps its data in DATA_DIR/pgdata across restarts (DESIGN §4). */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { demoAdmins, demoSso } from '../../../src/server/db/seed/demoData.js';
import { TEST_ENV } from '../support/testApp.js';

describe('server/db on disk', function () {
  this.timeout(60_000);
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-db-'));
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps data in DATA_DIR/pgdata across restarts and does not seed twice', async () => {
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: undefined, DATA_DIR: dataDir, SEED: 'demo', CAPTCHA: 'off' });
    const first = await buildApp(config);
    try {
      const response = await first.inject({
        method: 'POST',
        url: '/api/v2/registration_requests',
        payload: {
          corporation_name: 'Persistent Inc.',
          departments: 'IT',
          person_in_charge: 'Taro',
          phone_number: '0312345678',
          email: 'p@example.com',
          zip_code: '1000001',
          address: 'Tokyo',
          scale_of_employees: '2000',
        },
      });
      expect(response.statusCode).to.equal(201);
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).to.equal(true);

    const second = await buildApp(config);
    try {
      const requests = await second.db.selectFrom('registrationRequests').select('corporationName').execute();
      expect(requests).to.deep.equal([{ corporationName: 'Persistent Inc.' }]);
      const admins = await second.db.selectFrom('admins').select('email').execute();
      expect(admins).to.have.length(demoAdmins.length + demoSso.users.length); // seeded once (the single-sign-on demo's admins too)
    } finally {
      await second.close();
    }
  });
});
