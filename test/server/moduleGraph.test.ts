import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/configuration/load.js';

const SERVER = path.join(PROJECT_ROOT, 'src', 'server');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The modules of src/server a module imports at run time (`import type` is erased, so it closes no circle). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)(?! type )[^;]*?from\s*'(\.[^']+)\.js'|^import\s*'(\.[^']+)\.js'|import\(\s*'(\.[^']+)\.js'\)/gm)]
    .map((match) => `${path.join(path.dirname(file), (match[1] ?? match[2] ?? match[3])!)}.ts`)
    .filter((candidate) => known.has(candidate));
}

/** One circle of the graph, as the modules' names, or none: a depth-first walk that meets a module on its own path. */
function firstCircle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const walk = (file: string, trail: string[]): string[] | undefined => {
    const onTrail = trail.indexOf(file);
    if (onTrail >= 0) return [...trail.slice(onTrail), file];
    if (done.has(file)) return undefined;
    for (const next of graph.get(file)!) {
      const circle = walk(next, [...trail, file]);
      if (circle) return circle;
    }
    done.add(file);
    return undefined;
  };
  for (const file of graph.keys()) {
    const circle = walk(file, []);
    if (circle) return circle.map((member) => path.relative(SERVER, member));
  }
  return undefined;
}

describe('the server code’s modules', () => {
  it('import no circle: api/errors.ts owns the API’s errors, the 412 too, and api/preconditions.ts imports them from it', () => {
    const files = sources(SERVER);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    expect(graph.get(path.join(SERVER, 'api', 'preconditions.ts'))).to.include(path.join(SERVER, 'api', 'errors.ts'));
    const circle = firstCircle(graph);
    expect(circle, circle?.join(' → ')).to.equal(undefined);
  });
});
