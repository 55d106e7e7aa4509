/** The password strength rule scored in a worker thread: the same verdicts, and the event loop free meanwhile. */
import { expect } from 'chai';
import { createPasswordStrength, type PasswordStrength } from '../../../src/server/api/passwordStrength.js';
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
});
