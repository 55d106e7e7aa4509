/**
 * Sagas that arrive with a lazily loaded chunk (the screen engine's, with the first screen): the store registers its
 * saga middleware's `run`, and the chunk starts its sagas through it, once per store. Keeps them out of the first load.
 */
import type { Saga, Task } from 'redux-saga';

let run: ((saga: Saga) => Task) | undefined;
let started = new Set<Saga>();

/** The store's saga middleware runs what arrives later (a new store starts afresh). */
export function setSagaRunner(runner: (saga: Saga) => Task): void {
  run = runner;
  started = new Set();
}

/** Starts the saga on the store once; nothing where no store registered (tests that run their own sagas). */
export function startLazySaga(saga: Saga): void {
  if (!run || started.has(saga)) return;
  started.add(saga);
  run(saga);
}
