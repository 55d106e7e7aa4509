/**
 * docs/configuration.md, the guide for product staff: every example is tried. A fenced block whose info string names a
 * file (```json file=screens/contacts.json at=/blocks/0/when) is a change: its JSON is added at that JSON pointer
 * (JSON Patch's "add": an object's member is set, a list gets a new element there, `-` at its end) or, without
 * `at`, is the whole file. The changes of a section, made together on a copy of the configuration, must leave
 * check:config clean; a change marked `mistake` is made alone, and check:config must print exactly the lines of the
 * ```text check:config block after it.
 */
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkConfiguration } from '../../src/configuration/check.js';
import { PROJECT_ROOT } from '../../src/configuration/load.js';

interface Change {
  file: string;
  at?: string;
  json: unknown;
}
interface Example {
  section: string;
  changes: Change[];
  /** A mistake's lines printed by check:config; none for a change that must be clean. */
  expected?: string[];
}

/** The guide's examples: per section its clean changes together, and each mistake with its printed lines. */
function examples(guide: string): Example[] {
  const found: Example[] = [];
  let section = '';
  let clean: Example | undefined;
  for (const match of guide.matchAll(/^## (.+)$|^```(\S+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (match[1] !== undefined) {
      section = match[1];
      clean = undefined;
      continue;
    }
    const words = match[3]!.trim().split(/\s+/);
    const attribute = (name: string) => words.find((word) => word.startsWith(`${name}=`))?.slice(name.length + 1);
    const file = attribute('file');
    if (match[2] === 'text' && words.includes('check:config')) {
      found.at(-1)!.expected = match[4]!.trim().split('\n');
    } else if (file) {
      const change = { file, at: attribute('at'), json: JSON.parse(match[4]!) };
      if (words.includes('mistake')) found.push({ section, changes: [change], expected: [] });
      else if (clean) clean.changes.push(change);
      else found.push((clean = { section, changes: [change] }));
    }
  }
  return found;
}

const unescape = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** JSON Patch's "add" of `value` at `pointer`; the parent must exist (else the guide's example is wrong). */
function add(document: unknown, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1).map(unescape);
  const last = tokens.pop()!;
  const parent = tokens.reduce<any>((node, token) => {
    if (node === null || typeof node !== 'object' || !(token in node)) throw new Error(`${pointer}: no "${token}"`);
    return node[token];
  }, document);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new Error(`${pointer}: no position ${last}`);
    parent.splice(index, 0, value);
  } else if (parent !== null && typeof parent === 'object') parent[last] = value;
  else throw new Error(`${pointer}: not inside an object or a list`);
}

function apply(root: string, change: Change): void {
  const file = path.join(root, change.file);
  if (change.at === undefined) {
    writeFileSync(file, `${JSON.stringify(change.json, null, 2)}\n`);
    return;
  }
  const document = JSON.parse(readFileSync(file, 'utf8'));
  add(document, change.at, change.json);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}

const printed = (root: string) => checkConfiguration(root).map(({ file, pointer, message }) => `${file}#${pointer || '/'}: ${message}`);

describe('docs/configuration.md: every example of the guide', () => {
  const guide = readFileSync(path.join(PROJECT_ROOT, 'docs', 'configuration.md'), 'utf8');
  const all = examples(guide);
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'guide-'));
    for (const dir of ['schemas', 'screens', 'locales', 'frame', 'calendar']) cpSync(path.join(PROJECT_ROOT, dir), path.join(root, dir), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('has the examples of each task', () => {
    const sections = new Set(all.map((example) => example.section));
    for (const task of ['Change a word', 'Change a rule or a limit', 'Add a field to a form', 'Hide something by a condition', 'Add a screen', 'What check:config tells you']) expect(sections).to.include(task);
    expect(all.filter((example) => example.expected)).to.have.length.greaterThan(1);
  });

  for (const example of all) {
    const title = example.expected ? `${example.section}: the mistake at ${example.changes[0]!.file}#${example.changes[0]!.at} prints what the guide shows` : `${example.section}: its changes leave check:config clean`;
    it(title, () => {
      for (const change of example.changes) apply(root, change);
      expect(printed(root)).to.deep.equal(example.expected ?? []);
    });
  }

  it('a change that does not fit is caught (the examples are really checked)', () => {
    apply(root, { file: 'screens/contacts.json', at: '/blocks/0/when', json: 'noSuchCondition' });
    expect(printed(root)).not.to.deep.equal([]);
    expect(() => add({ blocks: [] }, '/blocks/3', 1)).to.throw('/blocks/3: no position 3');
    expect(() => add({}, '/form/uiSchema', 1)).to.throw('/form/uiSchema: no "form"');
  });
});
