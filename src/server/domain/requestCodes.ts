/**
 * New requestCodes (issue 15, finding 8): 'A' + 9 digits as before, but random, so a code tells nothing of how many
 * applications the portal (other organisations included) has taken, and a dry run uses none up. The first digit is
 * never 0: the codes of the sequence corporate_subscription_request_codes (the demo data's A000000101…, and any made
 * before) stay apart. The insert retries on the rare taken one (domain/corporateSubscriptions.ts).
 */
import { randomInt } from 'node:crypto';

export function randomRequestCode(): string {
  return `A${randomInt(100_000_000, 1_000_000_000)}`;
}
