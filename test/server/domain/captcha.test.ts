import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { createCaptchaChallenge, verifyCaptcha, type CaptchaSettings } from '../../../src/server/domain/captcha.js';
import { serverSecret } from '../../../src/server/domain/serverSecrets.js';
import { solve } from '../support/captcha.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe('Captcha (ALTCHA): signed, expiring, single-use challenges', () => {
  let database: TestDatabase;
  // one PBKDF2 iteration a try: the checks below are about the signature, the expiry and single use, not the work
  const settings: CaptchaSettings = { mode: 'on', secret: undefined, cost: 1 };

  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
  });
  after(async () => database?.destroy());

  it('signs challenges with a secret generated once and kept in the database', async () => {
    const challenge = await createCaptchaChallenge(database.db, settings);
    expect(challenge.signature).to.match(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.data?.challengeId).to.be.a('string');
    expect(challenge.parameters.expiresAt).to.be.closeTo(Date.now() / 1000 + 600, 5);
    const rows = await database.db.selectFrom('serverSecrets').selectAll().execute();
    expect(rows.map((row) => row.name)).to.deep.equal(['captcha_hmac']);
    expect(await serverSecret(database.db, 'captcha_hmac')).to.equal(rows[0]!.value);
  });

  it('asks 1,000 PBKDF2 iterations a try unless CAPTCHA_COST says otherwise, each challenge carrying its own', async () => {
    expect((await createCaptchaChallenge(database.db, { mode: 'on', secret: undefined })).parameters.cost).to.equal(1000);
    expect((await createCaptchaChallenge(database.db, { mode: 'on', secret: undefined, cost: 250 })).parameters.cost).to.equal(250);
    expect(loadConfig({}).captchaCost).to.equal(1000);
    expect(loadConfig({ CAPTCHA_COST: '250' }).captchaCost).to.equal(250);
    expect(() => loadConfig({ CAPTCHA_COST: '0' })).to.throw(ConfigError, /CAPTCHA_COST must be a positive integer/);
  });

  it('accepts a solution once; the replay is refused', async () => {
    const fields = await solve(await createCaptchaChallenge(database.db, settings));
    const input = { challengeKey: fields.capy_challengekey, answer: fields.capy_answer };
    expect(await verifyCaptcha(database.db, settings, input)).to.equal('ok');
    expect(await verifyCaptcha(database.db, settings, input)).to.equal('replayed');
  });

  it('refuses an expired challenge', async () => {
    const issued = Date.now() - 11 * 60 * 1000;
    const fields = await solve(await createCaptchaChallenge(database.db, settings, issued));
    expect(await verifyCaptcha(database.db, settings, { challengeKey: fields.capy_challengekey, answer: fields.capy_answer })).to.equal('expired');
  });

  it('refuses a challenge signed with another secret, and a tampered one', async () => {
    const foreign = await solve(await createCaptchaChallenge(database.db, { mode: 'on', secret: 'another-secret-that-is-long-enough-1234' }));
    expect(await verifyCaptcha(database.db, settings, { challengeKey: foreign.capy_challengekey, answer: foreign.capy_answer })).to.equal('invalid');

    const challenge = await createCaptchaChallenge(database.db, settings);
    const fields = await solve(challenge);
    const payload = JSON.parse(Buffer.from(fields.capy_answer, 'base64').toString());
    payload.challenge.parameters.expiresAt += 3600;
    const tampered = Buffer.from(JSON.stringify(payload)).toString('base64');
    expect(await verifyCaptcha(database.db, settings, { challengeKey: fields.capy_challengekey, answer: tampered })).to.equal('invalid');
  });

  it('refuses a wrong solution and garbage', async () => {
    const fields = await solve(await createCaptchaChallenge(database.db, settings));
    const payload = JSON.parse(Buffer.from(fields.capy_answer, 'base64').toString());
    payload.solution.counter += 1;
    payload.solution.derivedKey = '00'.repeat(32);
    const wrong = Buffer.from(JSON.stringify(payload)).toString('base64');
    expect(await verifyCaptcha(database.db, settings, { challengeKey: fields.capy_challengekey, answer: wrong })).to.equal('invalid');
    expect(await verifyCaptcha(database.db, settings, { challengeKey: 'x', answer: '%%%' })).to.equal('invalid');
    expect(await verifyCaptcha(database.db, settings, {})).to.equal('invalid');
  });

  it('with CAPTCHA=off accepts anything', async () => {
    expect(await verifyCaptcha(database.db, { mode: 'off', secret: undefined }, {})).to.equal('ok');
  });
});
