/**
 * `npm run schemas`: writes the JSON Schemas of the definition files (src/configuration/screenSchema.ts) to
 * screens/schema/, which every screen, fragment, conditions and menu file names in `$schema` so that editors complete
 * and flag while one types. check:config fails while a written file differs from its definition.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import { DEFINITION_SCHEMA_DIR, DEFINITION_SCHEMAS, definitionSchemaText, type DefinitionKind } from '../src/configuration/screenSchema.js';

const dir = path.join(PROJECT_ROOT, DEFINITION_SCHEMA_DIR);
mkdirSync(dir, { recursive: true });
for (const kind of Object.keys(DEFINITION_SCHEMAS) as DefinitionKind[]) writeFileSync(path.join(dir, `${kind}.schema.json`), definitionSchemaText(kind));
console.log(`wrote ${DEFINITION_SCHEMA_DIR}`);
