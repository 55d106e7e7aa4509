/**
 * Closing the HTTP server quickly on SIGTERM (issue 15 finding 11). Fastify's close stops listening and Node closes
 * the idle keep-alive connections, but a connection that has not sent (all the headers of) a request yet — a
 * browser's preconnect, a client that went quiet — counts as busy and held the close until the headers timeout.
 * This tracks which connections have a request in progress: at shutdown the others are closed at once, the busy ones
 * as soon as their answer is sent, and connections arriving later are refused.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionTracker {
  /** Closes every connection without a request in progress now, each other one after its answer, and every new one. */
  closeIdle(): void;
}

export function trackConnections(server: Server): ConnectionTracker {
  const sockets = new Set<Socket>();
  /** Requests in progress per connection (more than one when pipelined). */
  const inProgress = new Map<Socket, number>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      inProgress.delete(socket);
    });
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    inProgress.set(socket, (inProgress.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (inProgress.get(socket) ?? 1) - 1;
      if (left > 0) return void inProgress.set(socket, left);
      inProgress.delete(socket);
      if (closing) socket.end();
    });
  });

  return {
    closeIdle() {
      closing = true;
      for (const socket of sockets) if (!inProgress.has(socket)) socket.destroy();
    },
  };
}
