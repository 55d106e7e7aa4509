/**
 * The floor of a large answer (bench/large.ts): a bare node:http server, in a process of its own as the portal is,
 * answering every request with the bytes of one file (an answer the portal sent) and the same content type. What it
 * reads at 10 connections is what the load generator can take of those bytes on the same cores. Started with the
 * file's path; prints its URL as its first line of output.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2] ?? (() => { throw new Error('usage: sameBytes.ts <file>'); })());
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  console.log(`http://127.0.0.1:${address.port}`);
});
