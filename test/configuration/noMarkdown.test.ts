/**
 * The browser build leaves RJSF's Markdown renderer out (src/client/engine/forms/noMarkdown.tsx): no form may turn
 * Markdown on, or its text would show with its marks.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['schemas', 'screens', 'src/client'];
const STUB = path.join('src', 'client', 'engine', 'forms', 'noMarkdown.tsx');
/** The ui options and the widget that render Markdown in RJSF. */
const MARKDOWN = /enableMarkdownIn(?:Description|Help)|"data-url"|FileWidget/;

const files = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(json|tsx?)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));

describe('RJSF without Markdown', () => {
  it('no schema, screen or client code turns Markdown on', () => {
    const scanned = ROOTS.flatMap(files);
    expect(scanned.length, 'files scanned').to.be.greaterThan(100);
    const offending = scanned.filter((file) => file !== STUB && MARKDOWN.test(readFileSync(file, 'utf8')));
    expect(offending).to.deep.equal([]);
  });
});
