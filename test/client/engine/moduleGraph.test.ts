import { expect } from 'chai';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/configuration/load.js';
import { firstCircle, importGraph } from '../../support/moduleGraph.js';

const CLIENT = path.join(PROJECT_ROOT, 'src', 'client');

/** What a module of src/client imports, statically or lazily (`import('./x.js')`). */
const staticAndLazyImports = (text: string) => [...text.matchAll(/(?:from|import\()\s*(?:\/\*[^*]*\*\/\s*)?'(\.[^']+)\.js'/g)].map((match) => match[1]!);

describe('the browser code’s modules', () => {
  it('import no circle, not even lazily: the engines load their generated data from dataChunks.ts and are loaded from loaders of their own, which nothing inside an engine that reaches them imports', () => {
    const graph = importGraph(CLIENT, /\.tsx?$/, staticAndLazyImports);
    // the walk sees the lazy imports: the form block loads the form engine, the data loaders are imported by the engines
    expect(graph.get(path.join(CLIENT, 'engine', 'screen', 'blocks', 'FormView.tsx'))).to.include(path.join(CLIENT, 'engine', 'forms', 'formScreenChunk.ts'));
    expect(graph.get(path.join(CLIENT, 'engine', 'forms', 'formScreenChunk.ts'))).to.include(path.join(CLIENT, 'engine', 'forms', 'FormScreen.tsx'));
    expect(graph.get(path.join(CLIENT, 'engine', 'forms', 'formModule.ts'))).to.include(path.join(CLIENT, 'engine', 'dataChunks.ts'));
    const circle = firstCircle(graph, CLIENT);
    expect(circle, circle?.join(' → ')).to.equal(undefined);
  });
});
