/**
 * A TCP proxy (node:net) to put between the app and PostgreSQL: close() cuts every connection and
 * refuses new ones, open() accepts again on the same port. Simulates the database going away.
 */
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
  /** Stops for good. */
  dispose(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const listen = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
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
    dispose: close,
  };
}
