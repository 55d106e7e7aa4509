/**
 * Build step that turns the product configuration into browser modules under build/generated/ (never committed):
 * - forms/<schema>.cjs: the bundled schema and its precompiled RJSF validators (no eval in the browser, so the page
 *   runs under a strict Content-Security-Policy);
 * - locales/<lang>.json: every locale file of a language merged into one tree;
 * - screens.json: every screen definition, from which the route table is built.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ajvErrors from 'ajv-errors';
import type { RJSFSchema } from '@rjsf/utils';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import { loadFormSchemas, loadLocales, loadScreens, PROJECT_ROOT, type JsonSchema } from '../src/configuration/load.js';
import { AJV_OPTIONS } from '../src/configuration/ajvOptions.js';

export const GENERATED_DIR = path.join(PROJECT_ROOT, 'build', 'generated');

export function formModuleSource(schema: JsonSchema): string {
  const validators = compileSchemaValidatorsCode(schema as RJSFSchema, {
    ajvOptionsOverrides: { ...AJV_OPTIONS, code: { esm: false, lines: false } },
    ajvFormatOptions: false,
    extenderFn: (ajv) => ajvErrors(ajv),
  });
  // CommonJS output: ajv names the exports by schema hash, which is not a valid ESM export name.
  return `${validators}\nexports.schema = ${JSON.stringify(schema)};\n`;
}

export function generate(outDir = GENERATED_DIR): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'forms'), { recursive: true });
  mkdirSync(path.join(outDir, 'locales'), { recursive: true });
  for (const [name, schema] of Object.entries(loadFormSchemas())) {
    writeFileSync(path.join(outDir, 'forms', `${name}.cjs`), formModuleSource(schema));
  }
  for (const [language, tree] of Object.entries(loadLocales())) {
    writeFileSync(path.join(outDir, 'locales', `${language}.json`), JSON.stringify(tree));
  }
  writeFileSync(path.join(outDir, 'screens.json'), JSON.stringify(loadScreens()));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  generate();
  console.log(`generated ${path.relative(PROJECT_ROOT, GENERATED_DIR)}`);
}
