/**
 * Named pure functions a form's bindings may call (`{"fn": "earliestStartsOn", "args": ["$today"]}` in `ui:bind`
 * options, engine/forms/bindings.ts): rules shared with the server (src/common), never code in a screen file.
 */
import { BusinessCalendar } from '../../../common/businessCalendar.js';
import { isDate, latestStartsOn } from '../../../common/subscriptionRules.js';

type Fn = (...args: unknown[]) => unknown;

const ids = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const functions: Record<string, Fn> = {
  /** SPEC §5: the earliest start date of an application made on `today` (yyyy-MM-dd), with these closed days (`$closedDays`). */
  earliestStartsOn: (today, closedDays) =>
    typeof today === 'string' && isDate(today) ? BusinessCalendar.of(Array.isArray(closedDays) ? (closedDays as string[]) : []).earliestStartsOn(today) : undefined,
  /** SPEC §5: the latest start date for the chosen services (`services` as loaded, each with id and lastStartsOn). */
  latestStartsOn: (today, services, serviceIds) => {
    const chosen = ids(serviceIds);
    const lastStartsOns = (Array.isArray(services) ? (services as Array<{ id?: unknown; lastStartsOn?: string | null }>) : [])
      .filter((service) => chosen.includes(service.id))
      .map((service) => service.lastStartsOn ?? null);
    return latestStartsOn(String(today), lastStartsOns);
  },
};

export const FUNCTION_NAMES = Object.keys(functions);

/** Each function's last call: a form's bindings are resolved on each of its renders, mostly with the same arguments. */
const lastCalls = new Map<string, { args: unknown[]; result: unknown }>();

export function callFunction(name: string, args: unknown[]): unknown {
  const fn = functions[name];
  if (!fn) throw new Error(`unknown function "${name}"`);
  const last = lastCalls.get(name);
  if (last && last.args.length === args.length && last.args.every((arg, index) => Object.is(arg, args[index]))) return last.result;
  const result = fn(...args);
  lastCalls.set(name, { args, result });
  return result;
}
