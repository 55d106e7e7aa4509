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

describe('the browser code’s modules', () => {
  it('no two import each other, not even lazily (FormScreen gets the block renderer from the form block, which loads it through engine/chunks.ts)', () => {
    const files = sources(CLIENT);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
    const mutual = files.flatMap((file) => graph.get(file)!.filter((other) => file < other && graph.get(other)!.includes(file)).map((other) => `${path.relative(CLIENT, file)} ↔ ${path.relative(CLIENT, other)}`));
    expect(graph.get(path.join(CLIENT, 'engine', 'screen', 'blocks', 'FormView.tsx'))).to.include(path.join(CLIENT, 'engine', 'chunks.ts'));
    expect(graph.get(path.join(CLIENT, 'engine', 'chunks.ts'))).to.include(path.join(CLIENT, 'engine', 'forms', 'FormScreen.tsx'));
    expect(mutual).to.deep.equal([]);
  });
});
