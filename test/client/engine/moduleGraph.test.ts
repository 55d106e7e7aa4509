import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/configuration/load.js';

const CLIENT = path.join(PROJECT_ROOT, 'src', 'client');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The modules of src/client a module imports, statically or lazily (`import('./x.js')`). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*(?:\/\*[^*]*\*\/\s*)?'(\.[^']+)\.js'/g)]
    .map((match) => path.join(path.dirname(file), match[1]!))
    .flatMap((stem) => [`${stem}.ts`, `${stem}.tsx`].filter((candidate) => known.has(candidate)));
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
    if (circle) return circle.map((member) => path.relative(CLIENT, member));
  }
  return undefined;
}

describe('the browser code’s modules', () => {
  it('import no circle, not even lazily: the engines load their generated data from dataChunks.ts and are loaded from loaders of their own, which nothing inside an engine that reaches them imports', () => {
    const files = sources(CLIENT);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    // the walk sees the lazy imports: the form block loads the form engine, the data loaders are imported by the engines
    expect(graph.get(path.join(CLIENT, 'engine', 'screen', 'blocks', 'FormView.tsx'))).to.include(path.join(CLIENT, 'engine', 'forms', 'formScreenChunk.ts'));
    expect(graph.get(path.join(CLIENT, 'engine', 'forms', 'formScreenChunk.ts'))).to.include(path.join(CLIENT, 'engine', 'forms', 'FormScreen.tsx'));
    expect(graph.get(path.join(CLIENT, 'engine', 'forms', 'formModule.ts'))).to.include(path.join(CLIENT, 'engine', 'dataChunks.ts'));
    const circle = firstCircle(graph);
    expect(circle, circle?.join(' → ')).to.equal(undefined);
  });
});
