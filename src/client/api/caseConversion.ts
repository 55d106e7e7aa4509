/**
 * Deep key conversion between the API's snake_case and the client's camelCase (SPEC §7 General).
 * Only keys change, never values. Only plain objects and arrays are walked (FormData, Blob, Date … are
 * left as they are). Keys that do not start with a lowercase letter (numeric ids, codes such as
 * 'E001', '__private') are kept verbatim so they survive a round trip.
 */
import { camelCase, snakeCase } from 'change-case';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function convertKeys(value: unknown, convertKey: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convertKey));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[/^[a-z]/.test(key) ? convertKey(key) : key] = convertKeys(item, convertKey);
  }
  return result;
}

/**
 * A key's conversion, remembered: an answer repeats the same few keys on every row (10,000 learners: 80,000 keys,
 * which change-case's regular expressions took about 200 ms to convert one by one). The keys are the API's field
 * names, a small set, so the memo stays small.
 */
function remembered(convert: (key: string) => string): (key: string) => string {
  const memo = new Map<string, string>();
  return (key) => {
    let converted = memo.get(key);
    if (converted === undefined) {
      converted = convert(key);
      if (memo.size < 10_000) memo.set(key, converted);
    }
    return converted;
  };
}

const toSnake = remembered(snakeCase);
const toCamel = remembered(camelCase);

export function toSnakeKeys<T = unknown>(value: unknown): T {
  return convertKeys(value, toSnake) as T;
}

export function toCamelKeys<T = unknown>(value: unknown): T {
  return convertKeys(value, toCamel) as T;
}

/** 'users.0.phone_number' → 'users.0.phoneNumber' (each segment of a dot path). */
export function camelCasePath(path: string): string {
  return path
    .split('.')
    .map((segment) => (/^[a-z]/.test(segment) ? toCamel(segment) : segment))
    .join('.');
}
