import { tokyoToday } from '../../../src/common/subscriptionRules.js';

/**
 * Tokyo's day as the enclosing describe() starts, after the hooks registered before it (the app's demo seed, which
 * dates its rows from the same day): not as mocha loads the file, which a run passing Tokyo's midnight (15:00 UTC)
 * would make a day earlier than the seed's.
 */
export function useTokyoToday(): () => string {
  let day = tokyoToday();
  before(() => {
    day = tokyoToday();
  });
  return () => day;
}
