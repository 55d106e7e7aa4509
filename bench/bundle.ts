/**
 * Browser bundle sizes: gzip of the initial JavaScript (what every first page load downloads) and of each lazily
 * loaded chunk, plus what opening each screen adds on top of the initial load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { StatsChunk } from 'webpack';
import { loadScreens, PROJECT_ROOT } from '../src/configuration/load.js';
import { build } from '../scripts/build.js';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function gzipSize(file: string): number {
  return gzipSync(readFileSync(path.join(PROJECT_ROOT, 'dist', file)), { level: 9 }).length;
}

const jsFiles = (chunk: StatsChunk) => (chunk.files ?? []).filter((file) => file.endsWith('.js'));

export async function benchBundle(): Promise<void> {
  const stats = (await build('production')).toJson({ all: false, ids: true, chunks: true, chunkRelations: true });
  const chunks = stats.chunks ?? [];
  const sizes = new Map(chunks.map((chunk) => [chunk.id, jsFiles(chunk).reduce((sum, file) => sum + gzipSize(file), 0)]));
  const initial = chunks.filter((chunk) => chunk.initial);
  const initialSize = initial.reduce((sum, chunk) => sum + sizes.get(chunk.id)!, 0);

  console.log('\nBrowser bundle (webpack production, gzip -9)');
  console.log(`  initial JavaScript: ${kb(initialSize)} (${initial.flatMap(jsFiles).join(', ')})`);
  for (const chunk of chunks.filter((candidate) => !candidate.initial)) {
    const name = chunk.names?.length ? chunk.names.join(',') : `shared ${jsFiles(chunk).join(',')}`;
    console.log(`  chunk ${name}: ${kb(sizes.get(chunk.id)!)}`);
  }

  // what a screen needs beyond the initial load: its component or the form engine, and its form's validators
  const byName = (fragment: string) => chunks.filter((chunk) => chunk.names?.some((name) => name.includes(fragment)));
  const withSiblings = (selected: StatsChunk[]) => {
    const ids = new Set(selected.map((chunk) => chunk.id));
    for (const chunk of selected) for (const sibling of chunk.siblings ?? []) ids.add(sibling);
    return [...ids].reduce<number>((sum, id) => sum + (sizes.get(id) ?? 0), 0);
  };
  console.log('  per screen (added on first visit):');
  for (const screen of loadScreens()) {
    const needed = screen.form ? [...byName('form-screen'), ...byName(`form-${screen.form.schema}`)] : byName(`screen-${screen.component ?? screen.id}`);
    console.log(`    ${screen.path}: ${kb(withSiblings(needed))}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBundle();
