import { expect } from 'chai';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/configuration/load.js';
import { firstCircle, importGraph } from '../support/moduleGraph.js';

const SERVER = path.join(PROJECT_ROOT, 'src', 'server');

/** What a module of src/server imports at run time (`import type` is erased, so it closes no circle). */
const runTimeImports = (text: string) =>
  [...text.matchAll(/^(?:import|export)(?! type )[^;]*?from\s*'(\.[^']+)\.js'|^import\s*'(\.[^']+)\.js'|import\(\s*'(\.[^']+)\.js'\)/gm)].map((match) => (match[1] ?? match[2] ?? match[3])!);

describe('the server code’s modules', () => {
  it('import no circle: api/errors.ts owns the API’s errors, the 412 too, and api/preconditions.ts imports them from it', () => {
    const graph = importGraph(SERVER, /\.ts$/, runTimeImports);
    expect(graph.get(path.join(SERVER, 'api', 'preconditions.ts'))).to.include(path.join(SERVER, 'api', 'errors.ts'));
    const circle = firstCircle(graph, SERVER);
    expect(circle, circle?.join(' → ')).to.equal(undefined);
  });
});
