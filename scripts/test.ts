/**
 * `npm test`: every test, in four mocha runs that must not share a process — Node-side tests (server, common), the
 * configuration's checks, browser-side tests (client, under jsdom) and end-to-end tests (a real server and chromium).
 * All groups run even when one fails; the Node-side group runs beside the others (TEST_LANES=1: one after the
 * other), its output live and theirs when each ends. The last line is `N passed, N failed`.
 * Each group's peak memory (printed by test/support/memory.ts) is listed before it; a group above
 * TEST_MEMORY_LIMIT_MB (default 4096) fails the run: a test that leaves databases or servers open shows there.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { browserBuildIsStale } from './browserBuild.js';
import { build } from './build.js';
import { buildServer, serverBuildIsStale } from './buildServer.js';
import { generate } from './generate.js';

const GROUPS: Array<{ name: string; specs: string[]; setup?: string }> = [
  { name: 'node', specs: ['test/common', 'test/server'] },
  // the configuration's checks need no database: they run in the browser groups' lane, which ends sooner
  { name: 'configuration', specs: ['test/configuration'] },
  { name: 'client', specs: ['test/client'], setup: 'test/client/support/setup.ts' },
  { name: 'e2e', specs: ['test/e2e'] },
];

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

interface Counts {
  passed: number;
  failed: number;
  pending: number;
}

const MEMORY_LIMIT_MB = Number(process.env.TEST_MEMORY_LIMIT_MB ?? 4096);

/** The signal that stopped the run: no further group starts. */
let stoppedBy: NodeJS.Signals | undefined;

/** Runs one group's mocha; its output goes to `print` as it comes (live) or at its end (a lane running beside it). */
function runGroup(specs: string[], setup: string | undefined, live: boolean): Promise<Counts & { code: number; peakMemoryMb?: number }> {
  return new Promise((resolve) => {
    // added to .mocharc's `require` list (mocha concatenates them)
    const requires = setup ? ['--require', setup] : [];
    // its own process group: npx does not pass signals on to mocha, so a stop signals the whole group
    const child = spawn('npx', ['mocha', ...requires, ...specs], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env, detached: true });
    // a stopped `npm test` stops its mocha, which stops the servers its tests started (test/support/children.ts)
    const forward = (signal: NodeJS.Signals) => {
      stoppedBy = signal;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    for (const signal of signals) process.on(signal, forward);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (live) process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('close', (code) => {
      for (const signal of signals) process.off(signal, forward);
      if (!live) process.stdout.write(output);
      const count = (word: string) => Number(output.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
      const peak = output.match(/^peak memory: (\d+) MB$/m)?.[1];
      resolve({ passed: count('passing'), failed: count('failing'), pending: count('pending'), code: code ?? 1, peakMemoryMb: peak === undefined ? undefined : Number(peak) });
    });
  });
}

/** `npm test -- node e2e`: only the groups named. */
const only = process.argv.slice(2);
const unknown = only.filter((name) => !GROUPS.some((group) => group.name === name));
if (unknown.length > 0) {
  console.error(`unknown test group ${unknown.join(', ')}: the groups are ${GROUPS.map((group) => group.name).join(', ')}`);
  process.exit(2);
}
generate();
const total: Counts = { passed: 0, failed: 0, pending: 0 };
let exitCode = 0;
const memoryLines: string[] = [];

async function runLane(groups: typeof GROUPS, live: boolean): Promise<void> {
  for (const group of groups) {
    const files = group.specs.flatMap(testFiles);
    if (files.length === 0 || stoppedBy) continue;
    if (live) console.log(`\n=== ${group.name} tests ===`);
    const result = await runGroup(files, group.setup, live);
    if (!live) console.log(`\n(=== ${group.name} tests: printed above, run beside the other lane ===)`);
    total.passed += result.passed;
    total.failed += result.failed;
    total.pending += result.pending;
    const withinLimit = result.peakMemoryMb === undefined || result.peakMemoryMb <= MEMORY_LIMIT_MB;
    memoryLines.push(`${group.name} tests: peak memory ${result.peakMemoryMb ?? '?'} MB (limit ${MEMORY_LIMIT_MB} MB)${withinLimit ? '' : ' — OVER THE LIMIT'}`);
    if (!withinLimit) {
      exitCode = 1;
      total.failed += 1;
    }
    // a crash before any test ran still fails the run
    if (result.code !== 0) {
      exitCode = 1;
      if (result.failed === 0) total.failed += 1;
    }
  }
}

const selected = GROUPS.filter((candidate) => only.length === 0 || only.includes(candidate.name));
// The Node-side group mostly waits on one core (its embedded databases) and the other groups on chromium and a
// portal: side by side they take about the time of the longer. The builds both use are made first, once, so that
// two lanes never build into the same folder. TEST_LANES=1 runs the groups one after the other.
const lanes = Number(process.env.TEST_LANES ?? 2);
if (lanes > 1 && selected.length > 1) {
  if (browserBuildIsStale()) await build();
  if (serverBuildIsStale()) await buildServer();
  await Promise.all([runLane(selected.slice(0, 1), true), runLane(selected.slice(1), false)]);
} else {
  await runLane(selected, true);
}
if (stoppedBy) {
  console.log(`\nstopped by ${stoppedBy}`);
  process.exit(1);
}
console.log(`\n${memoryLines.join('\n')}`);
console.log(`\n${total.passed} passed, ${total.failed} failed${total.pending ? `, ${total.pending} skipped` : ''}`);
process.exit(exitCode);
