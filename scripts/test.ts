/**
 * `npm test`: every test, in three mocha runs that must not share a process — Node-side tests (server, common,
 * configuration), browser-side tests (client, under jsdom) and end-to-end tests (a real server and chromium).
 * All groups run even when one fails; the last line is `N passed, N failed`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { generate } from './generate.js';

const GROUPS: Array<{ name: string; specs: string[]; setup?: string }> = [
  { name: 'node', specs: ['test/common', 'test/configuration', 'test/server'] },
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

function runGroup(specs: string[], setup?: string): Promise<Counts & { code: number }> {
  return new Promise((resolve) => {
    // added to .mocharc's `require` list (mocha concatenates them)
    const requires = setup ? ['--require', setup] : [];
    const child = spawn('npx', ['mocha', ...requires, ...specs], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on('close', (code) => {
      const count = (word: string) => Number(output.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
      resolve({ passed: count('passing'), failed: count('failing'), pending: count('pending'), code: code ?? 1 });
    });
  });
}

const only = process.argv.slice(2);
generate();
const total: Counts = { passed: 0, failed: 0, pending: 0 };
let exitCode = 0;
for (const group of GROUPS.filter((candidate) => only.length === 0 || only.includes(candidate.name))) {
  const files = group.specs.flatMap(testFiles);
  if (files.length === 0) continue;
  console.log(`\n=== ${group.name} tests ===`);
  const result = await runGroup(files, group.setup);
  total.passed += result.passed;
  total.failed += result.failed;
  total.pending += result.pending;
  // a crash before any test ran still fails the run
  if (result.code !== 0) {
    exitCode = 1;
    if (result.failed === 0) total.failed += 1;
  }
}
console.log(`\n${total.passed} passed, ${total.failed} failed${total.pending ? `, ${total.pending} skipped` : ''}`);
process.exit(exitCode);
