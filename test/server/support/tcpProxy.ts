/**
 * A TCP proxy (node:net) to put between the app and PostgreSQL: close() cuts every connection and
 * refuses new ones, open() accepts again on the same port. Simulates the database going away.
 * blackHole() instead stops every byte in both directions without closing anything, as a NAT or load balancer
 * does when it forgets an idle connection: neither side hears a FIN or an RST.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
  /** From now on nothing passes, on open connections or new ones, and nothing is closed. */
  blackHole(): void;
  /** Passes bytes again for new connections; those black-holed are cut (what the peer finally hears). */
  restore(): void;
  /** Stops for good. */
  dispose(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  let server: net.Server | undefined;
  let port = 0;
  let blackHoled = false;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  // data read and dropped: the sender's writes succeed, nothing arrives
  const swallow = (socket: net.Socket) => {
    socket.unpipe();
    socket.removeAllListeners('data');
    socket.on('data', () => undefined);
  };

  const listen = async () => {
    server = net.createServer((client) => {
      track(client);
      if (blackHoled) return swallow(client);
      const upstream = net.connect(target.port, target.host);
      track(upstream);
      const pair: [net.Socket, net.Socket] = [client, upstream];
      pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => {
        client.destroy();
        pairs.delete(pair);
      });
    });
    await new Promise<void>((resolve, reject) => server!.once('error', reject).listen(port, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  };

  const close = async () => {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  await listen();
  return {
    get port() {
      return port;
    },
    close,
    open: listen,
    blackHole() {
      blackHoled = true;
      for (const [client, upstream] of pairs) {
        swallow(client);
        swallow(upstream);
      }
    },
    restore() {
      blackHoled = false;
      for (const socket of sockets) socket.destroy();
      pairs.clear();
    },
    dispose: close,
  };
}
