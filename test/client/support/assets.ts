/** Lets Node load the image imports of browser modules (webpack turns them into URLs): an import of x.svg is its path. */
import Module from 'node:module';

const extensions = (Module as unknown as { _extensions: Record<string, (module: { exports: unknown }, filename: string) => void> })._extensions;
for (const extension of ['.svg', '.png']) {
  extensions[extension] = (module, filename) => {
    module.exports = { default: filename, __esModule: true };
  };
}
