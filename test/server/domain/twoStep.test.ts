/**
 * The authenticator apps' secrets at rest (issue 44 finding 4): sealed with the newest of SECRET_KEY's keys,
 * each naming the key that sealed it, so a new key can come first while the older ones still open what they sealed.
 */
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { auditTrail } from '../../../src/server/domain/audit.js';
import { confirmAuthenticatorApp, startAuthenticatorApp, verifySecondStep } from '../../../src/server/domain/twoStep.js';
import { useTestApp } from '../support/testApp.js';

const appCode = (secret: string, timestamp: number) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

describe('domain/twoStep: the app secrets sealed under rotating keys (issue 44 finding 4)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  const [older, newer] = [Buffer.alloc(32, 7), Buffer.alloc(32, 9)];
  const member = { id: 2, email: 'member@example.com' };
  const trail = () => auditTrail({ adminId: 2 }, ['account.twoStepAdded', 'account.recoveryCodesGenerated', 'signIn.recoveryCodeUsed']);

  it('seals with the newest key under its id; after a new key comes first, the older key still opens it; without it, nothing does', async () => {
    const sealedWithOlder = { db: ctx.db, configuredKeys: [older] };
    const setup = await startAuthenticatorApp(sealedWithOlder, member);
    if (setup === 'already_on') throw new Error('unexpected');
    const now = Date.now();
    expect((await confirmAuthenticatorApp(sealedWithOlder, member, appCode(setup.secret, now), trail(), now)).ok).to.equal(true);
    const stored = await ctx.db.selectFrom('adminAuthenticatorApps').select('secretEncrypted').where('adminId', '=', 2).executeTakeFirstOrThrow();
    expect(stored.secretEncrypted).to.match(/^v2\.[A-Za-z0-9_-]{8}\./);

    const rotated = { db: ctx.db, configuredKeys: [newer, older] };
    expect(await verifySecondStep(rotated, member, appCode(setup.secret, now + 30_000), trail(), now + 30_000)).to.deep.equal({ method: 'otp', recoveryCode: false });
    const dropped = { db: ctx.db, configuredKeys: [newer] };
    let refused: unknown;
    await verifySecondStep(dropped, member, appCode(setup.secret, now + 60_000), trail(), now + 60_000).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.contain('SECRET_KEY');
  });

  it('in demo mode, without SECRET_KEY, seals with a key generated once and kept in the database', async () => {
    const demo = { db: ctx.db, configuredKeys: undefined };
    const manager = { id: 1, email: 'manager@example.com' };
    const setup = await startAuthenticatorApp(demo, manager);
    if (setup === 'already_on') throw new Error('unexpected');
    const now = Date.now();
    expect((await confirmAuthenticatorApp(demo, manager, appCode(setup.secret, now), trail(), now)).ok).to.equal(true);
    expect(await verifySecondStep(demo, manager, appCode(setup.secret, now + 30_000), trail(), now + 30_000)).to.deep.equal({ method: 'otp', recoveryCode: false });
    const kept = await ctx.db.selectFrom('serverSecrets').select('name').where('name', '=', 'twoStepSecretKey').execute();
    expect(kept).to.have.length(1);
  });
});
