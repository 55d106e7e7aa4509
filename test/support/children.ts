/**
 * Processes that tests start (a compiled server, a portal for the end-to-end tests): each leads a process group of
 * its own, and every group still running is killed (SIGKILL) when the test process ends however it ends — the
 * tests finished (mocha's --exit), a hook timed out while a start was still under way, an uncaught error, or a
 * SIGINT/SIGTERM/SIGHUP. Issue 15 finding 11: a portal outlived `npm test`.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function killAll(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
  running.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  const onSignal = () => {
    killAll();
    // the signal's own effect when nobody else handles it (playwright's handlers, for one, exit themselves)
    if (process.listenerCount(signal) === 1) {
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    }
  };
  process.on(signal, onSignal);
}

/** spawn(), in a process group of its own that dies with the test process. */
export function spawnChild(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM to the child's group; SIGKILL when it has not exited after `graceMs`. Resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  killGroup(child, 'SIGTERM');
  if (await exited(child, graceMs)) return;
  killGroup(child, 'SIGKILL');
  await exited(child, 5_000);
}
