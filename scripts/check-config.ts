/** `npm run check:config`: lists every configuration problem with its file and JSON pointer; exits 1 if any. */
import { checkConfiguration } from '../src/configuration/check.js';

const problems = checkConfiguration();
for (const { file, pointer, message } of problems) console.error(`${file}#${pointer || '/'}: ${message}`);
console.log(problems.length === 0 ? 'configuration OK' : `${problems.length} configuration problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
