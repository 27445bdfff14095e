import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-errors';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * preHandler of the development-only routes (the mail outbox, the simulated payment, the e2e
 * server's test routes): they answer only a client on this machine. Both the connection and the
 * client named by a trusted proxy must be loopback, so a reverse proxy on the same machine does not
 * open them to the world. Others get the same 404 as a route that does not exist.
 */
export async function onlyFromLoopback(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!isLoopbackAddress(request.socket.remoteAddress) || !isLoopbackAddress(request.ip)) {
    throw new HttpError(404, 'Resursa nu a fost găsită.');
  }
}
