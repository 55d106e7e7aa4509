/**
 * Lets Node load the image imports of browser modules as webpack does: an import of x.svg is its path (webpack's URL),
 * of x.inline.svg its markup.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';

const extensions = (Module as unknown as { _extensions: Record<string, (module: { exports: unknown }, filename: string) => void> })._extensions;
for (const extension of ['.svg', '.png']) {
  extensions[extension] = (module, filename) => {
    module.exports = { default: filename.endsWith('.inline.svg') ? readFileSync(filename, 'utf8') : filename, __esModule: true };
  };
}
