/**
 * Today in the Asia/Tokyo calendar, the day every date rule counts from (subscriptionRules.ts). Apart from the rules,
 * and without moment, as every screen asks for it (engine/screen/ScreenView.tsx) and moment is kept out of the
 * screens' shared chunk (issue 47).
 */

/** Japan has no daylight saving time: a fixed offset is the Asia/Tokyo calendar. */
const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000;

/** Today (or the day of `now`) in the Asia/Tokyo calendar, yyyy-MM-dd. */
export function tokyoToday(now: Date = new Date()): string {
  return new Date(now.getTime() + TOKYO_OFFSET_MS).toISOString().slice(0, 10);
}
