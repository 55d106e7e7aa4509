/** The password-strength score in a worker thread of api/passwordStrength.ts's pool. */
import { estimateScore } from '../../common/passwordStrength.js';

export default function score(password: string): number {
  return estimateScore(password);
}
