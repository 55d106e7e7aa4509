/**
 * The JavaScript of a first visit (issue 20's budget): the initial chunks and the default language's words chunk,
 * gzip -9, from a production build's stats; with the biggest modules of the initial chunks, to show what grew.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Module, Stats, StatsChunk } from 'webpack';
import { DEFAULT_LANGUAGE } from '../src/common/languages.js';
import { PROJECT_ROOT } from '../src/configuration/load.js';

/** The budget in KB (1,024 bytes) of gzip -9: issue 20's goal. */
export const FIRST_LOAD_BUDGET_KB = 150;

export interface FirstLoad {
  bytes: number;
  files: Array<{ file: string; bytes: number }>;
  /** The initial chunks' modules by package or file, biggest first (their source size, as webpack reports it). */
  modules: Array<{ name: string; size: number }>;
}

/** The budget counts code and words: a production script's closing `//# sourceMappingURL=` line is left out. */
const withoutSourceMapLine = (script: string) => script.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '');
/** Where `npm run build` leaves the first load it measured (the first-load test reads it rather than building again). */
export const FIRST_LOAD_FILE = path.join(PROJECT_ROOT, 'build', 'first-load.json');

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const jsFiles = (chunk: StatsChunk) => (chunk.files ?? []).filter((file) => file.endsWith('.js'));
/** A concatenated module's parts, each with its own name. */
const flat = (module: Module): Module[] => {
  const parts = (module as Module & { modules?: Module[] }).modules;
  return parts?.length ? parts.flatMap(flat) : [module];
};

export function measureFirstLoad(stats: Stats): FirstLoad {
  const { outputPath = '', chunks = [] } = stats.toJson({ all: false, outputPath: true, chunks: true, ids: true });
  const { compilation } = stats;
  const words = chunks.filter((chunk) => chunk.names?.includes(`locale-${DEFAULT_LANGUAGE}-json`));
  const initial = chunks.filter((chunk) => chunk.initial);
  const files = [...initial, ...words].flatMap(jsFiles).map((file) => ({ file, bytes: gzipSync(withoutSourceMapLine(readFileSync(path.join(outputPath, file), 'utf8')), { level: 9 }).length }));
  const modules = [...compilation.chunks]
    .filter((chunk) => chunk.canBeInitial())
    .flatMap((chunk) => compilation.chunkGraph.getChunkModules(chunk).flatMap(flat))
    .map((module) => ({ name: module.readableIdentifier(compilation.requestShortener).replace(/^.*!/, '').replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1'), size: module.size() }));
  const byName = new Map<string, number>();
  for (const module of modules) byName.set(module.name, (byName.get(module.name) ?? 0) + module.size);
  return {
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    files,
    modules: [...byName].map(([name, size]) => ({ name, size })).sort((a, b) => b.size - a.size),
  };
}

/** What a report prints: the total against the budget, each file, and the biggest modules. */
export function describeFirstLoad(load: FirstLoad, top = 15): string {
  return [
    `first load: ${kb(load.bytes)} gzip -9 (budget ${FIRST_LOAD_BUDGET_KB} KB)`,
    ...load.files.map((file) => `  ${file.file}: ${kb(file.bytes)}`),
    '  biggest modules of the initial chunks (source size, before minifying):',
    ...load.modules.slice(0, top).map((module) => `    ${kb(module.size).padStart(9)}  ${module.name}`),
  ].join('\n');
}
