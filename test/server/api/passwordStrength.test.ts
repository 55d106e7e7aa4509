/** The password strength rule scored in a worker thread: the same verdicts, and the event loop free meanwhile. */
import { expect } from 'chai';
import { createPasswordStrength, type PasswordStrength } from '../../../src/server/api/passwordStrength.js';
import { ApiError } from '../../../src/server/api/errors.js';
import { FormValidationError } from '../../../src/server/api/validation.js';

describe('the password strength check (api/passwordStrength.ts)', () => {
  let strength: PasswordStrength;
  before(() => {
    strength = createPasswordStrength();
  });
  after(() => strength.close());

  it('refuses a dictionary word on its field with the meter’s words, and lets a strong password pass', async () => {
    const refusal = await strength.requireStrong('new', 'Password1').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(FormValidationError);
    expect((refusal as FormValidationError).fieldErrors).to.deep.equal([{ field: 'new', code: 'invalid', meta: { messageKey: 'password.strength.0' } }]);
    await strength.requireStrong('new', 'Xk8#pq2!zzLm');
  });

  it('keeps the event loop turning while it scores (hundreds of milliseconds of CPU, on the main thread none could)', async () => {
    let turns = 0;
    let scoring = true;
    const spin = (): void => {
      turns += 1;
      if (scoring) setImmediate(spin);
    };
    setImmediate(spin);
    await strength.requireStrong('password', 'Xk8#pq2!zzLm-Qr7');
    scoring = false;
    expect(turns).to.be.greaterThan(20);
  });

  it('answers 429 rather than queueing scores without end (one worker, 300–500 ms a score)', async () => {
    const busy = createPasswordStrength({ maxWaiting: 1 });
    try {
      const outcomes = await Promise.allSettled(['Xk8#pq2!zzLm-1', 'Xk8#pq2!zzLm-2', 'Xk8#pq2!zzLm-3'].map((password) => busy.requireStrong('new', password)));
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason as unknown);
      expect(outcomes[0]!.status).to.equal('fulfilled');
      expect(refused).to.have.length.greaterThan(0);
      for (const reason of refused) expect(reason).to.be.instanceOf(ApiError).and.to.include({ statusCode: 429, apiCode: 'too_many_requests' });
    } finally {
      await busy.close();
    }
  });
});
