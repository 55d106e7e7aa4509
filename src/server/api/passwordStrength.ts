/**
 * The password strength rule of SPEC §5 on the server (issue 7 finding 14): the score the browser's meter shows
 * (zxcvbn-ts, the same dictionaries) must reach MIN_PASSWORD_SCORE, so an API call cannot set a password the form
 * would refuse. The schema has already checked the policy (length, characters); a weak password answers 422 on its
 * field with the meter's words as the message (password.strength.<score>).
 */
import { FIELD_ERROR } from '../../common/errorCodes.js';
import { MIN_PASSWORD_SCORE } from '../../common/passwordPolicy.js';
import { estimateScore } from '../../common/passwordStrength.js';
import { FormValidationError } from './validation.js';
import { wireField } from './wire.js';

export function requireStrongPassword(field: string, password: string): void {
  const score = estimateScore(password);
  if (score >= MIN_PASSWORD_SCORE) return;
  throw new FormValidationError([{ field: wireField([field]), code: FIELD_ERROR.invalid, meta: { messageKey: `password.strength.${score}` } }]);
}
