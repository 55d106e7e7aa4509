/** A pino logger whose lines are kept in `lines` (pass it to buildApp/useTestApp as `logger`). */
import { Writable } from 'node:stream';
import pino from 'pino';

export function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}
