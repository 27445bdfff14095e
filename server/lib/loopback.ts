import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './http-errors';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** Headers by which a reverse proxy names the client it forwards. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * The client addresses a request's proxy headers name: every entry of X-Forwarded-For, every
 * `for=` of Forwarded (RFC 7239: quoted, bracketed IPv6, with a port, or "unknown"), X-Real-IP.
 * Null when the request carries none of these headers.
 */
export function proxiedClients(headers: FastifyRequest['headers']): string[] | null {
  if (!PROXY_HEADERS.some((h) => headers[h] !== undefined)) return null;
  const values = (h: (typeof PROXY_HEADERS)[number]) => [headers[h]].flat().filter((v): v is string => typeof v === 'string');
  const out: string[] = [];
  for (const v of values('x-forwarded-for')) out.push(...v.split(','));
  for (const v of values('x-real-ip')) out.push(v);
  for (const v of values('forwarded')) {
    for (const part of v.split(/[,;]/)) {
      const m = /^\s*for\s*=\s*(.*)$/i.exec(part);
      if (m) out.push(m[1]);
    }
  }
  return out.map((a) =>
    a
      .trim()
      .replace(/^"|"$/g, '')
      .replace(/^\[([^\]]*)\](?::\d+)?$/, '$1')
      .replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/, '$1'),
  );
}

/**
 * The hook (onRequest or preHandler) of the development-only routes (the mail outbox, the simulated payment, the browsable
 * API docs, the e2e server's test routes): they answer only a client on this machine. The connection
 * must be loopback, and a request that came through a proxy (it carries X-Forwarded-For, Forwarded or
 * X-Real-IP) is refused unless the proxy is trusted (TRUST_PROXY) and names only loopback clients: a
 * reverse proxy on the same machine (nginx, Caddy in front of `npm start`) connects from 127.0.0.1
 * and must not open these routes to the world. Others get the same 404 as a route that does not exist.
 */
export async function onlyFromLoopback(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const notFound = () => new HttpError(404, 'Resursa nu a fost găsită.');
  if (!isLoopbackAddress(request.socket.remoteAddress) || !isLoopbackAddress(request.ip)) throw notFound();
  const clients = proxiedClients(request.headers);
  if (clients === null) return;
  const setting = request.server.config?.trustProxy;
  const trusted = Array.isArray(setting) ? setting.length > 0 : Boolean(setting);
  if (!trusted || !clients.length || !clients.every(isLoopbackAddress)) throw notFound();
}
