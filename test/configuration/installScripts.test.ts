/**
 * npm 11 skips a dependency's install scripts unless package.json's `allowScripts` names it, and `npm ci` ends with a
 * warning listing the others: every locked package with an install script is declared (allowed or denied), so a fresh
 * clone installs without that warning. npm 10 ignores the field and runs the scripts as before.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/configuration/load.js';

const readJson = <T>(file: string) => JSON.parse(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')) as T;

/** A lock entry's package name: the last `node_modules/<name>` of its path (scoped names keep their scope). */
const packageName = (lockPath: string) => lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
/** An allowScripts key's package name: a pinned key (`name@1.2.3`) without its version. */
const declaredName = (key: string) => key.replace(/(?<=.)@.*$/, '');

describe('install scripts (package.json allowScripts, npm 11)', () => {
  it('every locked package with an install script is declared in allowScripts, and only those', () => {
    const lock = readJson<{ packages: Record<string, { hasInstallScript?: boolean }> }>('package-lock.json');
    const { allowScripts = {} } = readJson<{ allowScripts?: Record<string, boolean> }>('package.json');
    const withScripts = [...new Set(Object.entries(lock.packages).filter(([lockPath, entry]) => lockPath !== '' && entry.hasInstallScript).map(([lockPath]) => packageName(lockPath)))].sort();
    expect(withScripts).to.include.members(['argon2', 'esbuild']);
    expect(Object.keys(allowScripts).map(declaredName).sort()).to.deep.equal(withScripts);
  });
});
