import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A Host as a browser sends it: a name or IPv4 address, or a bracketed IPv6 address, and an optional port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin of links handed back to the browser that asked for them (the built-in checkout and
 * its return, the QR hand-over link). PUBLIC_URL always wins; unset (development), the request's
 * own origin as Fastify sees it (protocol and Host, or X-Forwarded-Proto/-Host when TRUST_PROXY
 * trusts the proxy), so a visitor of http://127.0.0.1:3000 stays on 127.0.0.1. A Host that is no
 * host falls back to PUBLIC_URL's default. Mail links never use this: they keep `config.publicUrl`.
 */
export function browserOrigin(app: FastifyInstance, request: FastifyRequest): string {
  const { publicUrl, publicUrlSet } = app.config;
  if (publicUrlSet) return publicUrl;
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  const host = request.host;
  if (!host || !HOST.test(host)) return publicUrl;
  return new URL(`${protocol}://${host}`).origin;
}
