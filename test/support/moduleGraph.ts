/**
 * The import graph of a source folder, for the tests that keep it free of circles (test/client/engine and
 * test/server moduleGraph.test.ts): each passes its own pattern of what counts as an import there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every source file under `dir` whose name matches `extensions`. */
function sources(dir: string, extensions: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full, extensions);
    return extensions.test(entry.name) ? [full] : [];
  });
}

/**
 * The graph of `dir`: each file and the files of `dir` it imports. `importedStems` names, for a file's text, the
 * relative specifiers it imports without their `.js`; a stem is the first of `stem.ts`, `stem.tsx` that exists.
 */
export function importGraph(dir: string, extensions: RegExp, importedStems: (text: string) => string[]): Map<string, string[]> {
  const files = sources(dir, extensions);
  const known = new Set(files);
  const importsOf = (file: string) =>
    importedStems(readFileSync(file, 'utf8'))
      .map((stem) => path.join(path.dirname(file), stem))
      .flatMap((stem) => [`${stem}.ts`, `${stem}.tsx`].filter((candidate) => known.has(candidate)));
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/** One circle of the graph, as the modules' names relative to `dir`, or none: a depth-first walk that meets a module on its own path. */
export function firstCircle(graph: Map<string, string[]>, dir: string): string[] | undefined {
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
    if (circle) return circle.map((member) => path.relative(dir, member));
  }
  return undefined;
}
