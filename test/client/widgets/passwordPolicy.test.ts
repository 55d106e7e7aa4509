import { expect } from 'chai';
import { loadFormSchemas } from '../../../src/configuration/load.js';
import { meetsPolicy, MIN_PASSWORD_SCORE, policyFromSchema, strengthScore } from '../../../src/common/passwordPolicy.js';
import { estimateScore } from '../../../src/common/passwordStrength.js';

const policy = policyFromSchema(loadFormSchemas()['password-change'].$defs!.password as Record<string, unknown>);

describe('widgets/password strength rule (SPEC §5)', () => {
  it('reads the policy from schemas/common.json: 8–64, pattern', () => {
    expect(policy.minLength).to.equal(8);
    expect(policy.maxLength).to.equal(64);
    expect(policy.pattern).to.be.a('string');
  });

  it('the policy: a digit, a lowercase and an uppercase letter, printable ASCII only, 8 to 64', () => {
    expect(meetsPolicy('DemoPassw0rd!', policy)).to.equal(true);
    expect(meetsPolicy('demopassw0rd!', policy)).to.equal(false);
    expect(meetsPolicy('DEMOPASSW0RD!', policy)).to.equal(false);
    expect(meetsPolicy('DemoPassword!', policy)).to.equal(false);
    expect(meetsPolicy('Dp0!', policy)).to.equal(false);
    expect(meetsPolicy(`Aa0${'x'.repeat(62)}`, policy)).to.equal(false);
    expect(meetsPolicy('Demo Passw0rd', policy)).to.equal(false);
    expect(meetsPolicy('Demoパスw0rdX', policy)).to.equal(false);
  });

  it('a score of 2 or more with a policy failure is forced to 1; other scores stay', () => {
    for (const score of [2, 3, 4]) expect(strengthScore(score, 'correct horse battery staple', policy)).to.equal(1);
    for (const score of [0, 1]) expect(strengthScore(score, 'short', policy)).to.equal(score);
    for (const score of [0, 1, 2, 3, 4]) expect(strengthScore(score, 'DemoPassw0rd!', policy)).to.equal(score);
  });

  it('with zxcvbn-ts: a long passphrase breaking the policy is 1, a strong policy-conforming password is ≥ 2, a common one is < 2', () => {
    const passphrase = 'correct horse battery staple';
    expect(estimateScore(passphrase)).to.be.at.least(MIN_PASSWORD_SCORE);
    expect(strengthScore(estimateScore(passphrase), passphrase, policy)).to.equal(1);
    expect(strengthScore(estimateScore('DemoPassw0rd!'), 'DemoPassw0rd!', policy)).to.be.at.least(MIN_PASSWORD_SCORE);
    expect(strengthScore(estimateScore('Password1'), 'Password1', policy)).to.be.below(MIN_PASSWORD_SCORE);
    expect(estimateScore('')).to.equal(0);
  });

  it('the Japanese dictionaries count: a romanised common word scores low', () => {
    expect(estimateScore('sakura')).to.be.below(MIN_PASSWORD_SCORE);
  });
});
