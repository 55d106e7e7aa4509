/**
 * One key between the API's snake_case and the code's camelCase (SPEC §7 General), each conversion remembered: an
 * answer or a body repeats the same few keys on every row (10,000 learners: 80,000 keys, which change-case's regular
 * expressions took about 85 ms to convert one by one). Keys come from clients too, so the memo stops growing at
 * MAX_REMEMBERED_KEYS rather than grow without bound, and the server remembers only the keys a route's schema names
 * (`remember: false` for the others, issue 25 finding 3: a body's made-up keys would fill it for good). Used by the
 * server (api/wire.ts) and the browser (client/api/caseConversion.ts).
 */
import { camelCase, snakeCase } from 'change-case';

const MAX_REMEMBERED_KEYS = 10_000;

function remembered(convert: (key: string) => string): (key: string, remember?: boolean) => string {
  const memo = new Map<string, string>();
  return (key, remember = true) => {
    let converted = memo.get(key);
    if (converted === undefined) {
      converted = convert(key);
      if (remember && memo.size < MAX_REMEMBERED_KEYS) memo.set(key, converted);
    }
    return converted;
  };
}

export const toCamelKey = remembered(camelCase);
export const toSnakeKey = remembered(snakeCase);
