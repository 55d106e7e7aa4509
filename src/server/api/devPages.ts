/**
 * The development pages under /dev (demo mode only, app.ts): the outbox, the screen gallery, the demo partner and the
 * demo identity provider.
 * They answer this machine only (issue 15 finding 3): the outbox shows every activation and reset link.
 *
 * The check is on the socket's remote address, never on request.ip, which TRUST_PROXY (true in demo mode) lets any
 * client set with X-Forwarded-For. A proxy on this machine makes every client look local, so a request that a proxy
 * relayed (any Forwarded, X-Forwarded-For or X-Real-IP header) is refused too: behind a proxy the pages are not
 * reachable, whoever the client is.
 */
import net from 'node:net';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { devIdpRoutes } from './devIdp.js';
import { devMailsRoutes } from './devMails.js';
import { devPartnerRoutes } from './devPartner.js';
import { devScreensRoutes } from './devScreens.js';

const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** 127.0.0.0/8, ::1, and 127.x written as an IPv4-mapped IPv6 address (a dual-stack socket). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.toLowerCase().replace(/^::ffff:/, '');
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** Whether the request comes straight from this machine (not through a proxy). */
export function isLocalClient(request: FastifyRequest): boolean {
  return isLoopbackAddress(request.raw.socket.remoteAddress) && PROXY_HEADERS.every((name) => request.headers[name] === undefined);
}

async function refuseOtherMachines(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isLocalClient(request)) return;
  return reply.code(403).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Forbidden: the development pages answer only the machine the portal runs on');
}

export const devRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', refuseOtherMachines);
  await app.register(devMailsRoutes);
  await app.register(devScreensRoutes);
  await app.register(devPartnerRoutes);
  await app.register(devIdpRoutes);
};
