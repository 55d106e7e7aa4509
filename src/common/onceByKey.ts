/**
 * A promise made once per key and shared by every caller who asks for that key meanwhile (a key pair, a password hash,
 * a loaded chunk). A promise that fails is dropped, so the next caller tries again instead of getting the same failure
 * (a busy database or a lost connection does not last, and the process does).
 */

/** Where the promises are kept: a Map, or a WeakMap when each key is an object (a database handle). */
export interface PromiseStore<K, T> {
  get(key: K): Promise<T> | undefined;
  set(key: K, promise: Promise<T>): unknown;
  delete(key: K): unknown;
}

/** The promise kept under `key`, or the one `make` starts now, kept until it fails. */
export function onceByKey<K, T>(store: PromiseStore<K, T>, key: K, make: () => Promise<T>): Promise<T> {
  const kept = store.get(key);
  if (kept) return kept;
  const made = make();
  store.set(key, made);
  // only this promise: the caller may have replaced it meanwhile
  made.catch(() => store.get(key) === made && store.delete(key));
  return made;
}
