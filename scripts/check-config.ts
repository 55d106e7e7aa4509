/**
 * `npm run check:config`: lists every configuration problem with its file and JSON pointer; exits 1 if any. The
 * server's routes come from Fastify itself (the app built on an empty in-memory database), so every call a screen
 * makes must be a real route.
 */
import { checkConfiguration } from '../src/configuration/check.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig, MEMORY_DATABASE_URL } from '../src/server/config.js';

const app = await buildApp(loadConfig({ ...process.env, DATABASE_URL: MEMORY_DATABASE_URL, SEED: 'none', LOG_LEVEL: 'error' }));
const routes = [...app.registeredRoutes];
await app.close();

const problems = checkConfiguration(undefined, { routes });
for (const { file, pointer, message } of problems) console.error(`${file}#${pointer || '/'}: ${message}`);
console.log(problems.length === 0 ? 'configuration OK' : `${problems.length} configuration problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
