/** `npm start`: builds the browser bundle when it is missing or out of date, then runs the portal. */
import { browserBuildIsStale } from './browserBuild.js';
import { build } from './build.js';

if (browserBuildIsStale()) {
  console.log('Building the browser bundle…');
  await build();
}
await import('../src/server/main.js');
