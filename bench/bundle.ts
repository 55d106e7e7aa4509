/**
 * Browser bundle sizes: the first load (initial JavaScript and the default language's words, gzip -9, against issue
 * 20's budget: scripts/firstLoad.ts, tested by test/configuration/firstLoad.test.ts), each lazily loaded chunk, and
 * what opening each screen adds on top of the first load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { StatsChunk } from 'webpack';
import { loadScreens, PROJECT_ROOT } from '../src/configuration/load.js';
import { build } from '../scripts/build.js';
import { describeFirstLoad, FIRST_LOAD_BUDGET_KB, measureFirstLoad, type FirstLoad } from '../scripts/firstLoad.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function gzipSize(file: string): number {
  return gzipSync(readFileSync(path.join(PROJECT_ROOT, 'dist', file)), { level: 9 }).length;
}

const jsFiles = (chunk: StatsChunk) => (chunk.files ?? []).filter((file) => file.endsWith('.js'));

/** Prints the bundle's chunks and sizes; answers the first load (issue 20's budget, scripts/firstLoad.ts). */
export async function benchBundle(): Promise<FirstLoad> {
  const built = await build('production');
  const firstLoad = measureFirstLoad(built);
  const stats = built.toJson({ all: false, ids: true, chunks: true, chunkRelations: true });
  const chunks = stats.chunks ?? [];
  const sizes = new Map(chunks.map((chunk) => [chunk.id, jsFiles(chunk).reduce((sum, file) => sum + gzipSize(file), 0)]));
  const initial = chunks.filter((chunk) => chunk.initial);
  const initialSize = initial.reduce((sum, chunk) => sum + sizes.get(chunk.id)!, 0);

  console.log('\nBrowser bundle (webpack production, gzip -9)');
  console.log(describeFirstLoad(firstLoad, 10));
  console.log(`  budget: ${kb(firstLoad.bytes)} / ${FIRST_LOAD_BUDGET_KB} KB (goal 150 KB) ${firstLoad.bytes / 1024 <= FIRST_LOAD_BUDGET_KB ? 'holds' : 'EXCEEDED'}`);
  console.log(`  initial JavaScript: ${kb(initialSize)} (${initial.flatMap(jsFiles).join(', ')})`);
  for (const chunk of chunks.filter((candidate) => !candidate.initial)) {
    const name = chunk.names?.length ? chunk.names.join(',') : `shared ${jsFiles(chunk).join(',')}`;
    console.log(`  chunk ${name}: ${kb(sizes.get(chunk.id)!)}`);
  }

  // what a screen needs beyond the first load: its component or the engine, its chunk (definition, conditions,
  // words), its form's validators
  const byName = (fragment: string) => chunks.filter((chunk) => chunk.names?.some((name) => name.includes(fragment)));
  const withSiblings = (selected: StatsChunk[]) => {
    const ids = new Set(selected.map((chunk) => chunk.id));
    for (const chunk of selected) for (const sibling of chunk.siblings ?? []) ids.add(sibling);
    return [...ids].reduce<number>((sum, id) => sum + (sizes.get(id) ?? 0), 0);
  };
  console.log('  per screen (added on first visit):');
  for (const screen of loadScreens()) {
    const engine = screen.component ? byName(`screen-${screen.component}`) : byName('screen-view');
    const own = [...byName(`screen-ja-${screen.id}-cjs`), ...(screen.component ? [] : byName('words-engine-ja'))];
    const needed = [...engine, ...own, ...(screen.form ? [...byName('form-screen'), ...byName(`form-${screen.form.schema}`)] : [])];
    console.log(`    ${screen.path}: ${kb(withSiblings(needed))}`);
  }
  return firstLoad;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBundle();
