/** `npm run bench`: browser bundle sizes, then the API pipeline's throughput next to a bare Fastify route. */
import { benchBundle } from './bundle.js';

await benchBundle();
await import('./api.js');
