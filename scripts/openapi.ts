/**
 * `npm run openapi [file]`: writes the API's OpenAPI document (what `/api/docs/json` serves) without a running portal,
 * for client generators: the app is built on an empty in-memory database and asked for its document.
 */
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/server/app.js';
import { loadConfig, MEMORY_DATABASE_URL } from '../src/server/config.js';

const app = await buildApp(loadConfig({ ...process.env, DATABASE_URL: MEMORY_DATABASE_URL, SEED: 'none', LOG_LEVEL: 'error' }));
const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
await app.close();
const file = process.argv[2];
if (file) writeFileSync(file, document);
else process.stdout.write(document);
