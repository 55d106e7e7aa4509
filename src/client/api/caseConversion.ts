/**
 * Deep key conversion between the API's snake_case and the client's camelCase (SPEC §7 General).
 * Only keys change, never values. Only plain objects and arrays are walked (FormData, Blob, Date … are
 * left as they are). Keys that do not start with a lowercase letter (numeric ids, codes such as
 * 'E001', '__private') are kept verbatim so they survive a round trip.
 */
import { toCamelKey, toSnakeKey } from '../../common/keyCase.js';

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

export function toSnakeKeys<T = unknown>(value: unknown): T {
  return convertKeys(value, toSnakeKey) as T;
}

export function toCamelKeys<T = unknown>(value: unknown): T {
  return convertKeys(value, toCamelKey) as T;
}

/** 'users.0.phone_number' → 'users.0.phoneNumber' (each segment of a dot path). */
export function camelCasePath(path: string): string {
  return path
    .split('.')
    .map((segment) => (/^[a-z]/.test(segment) ? toCamelKey(segment) : segment))
    .join('.');
}
