import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findAccessToken, type UserRow } from '../lib/tokens';
import { unauthorized } from '../lib/http-errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: requires `Authorization: Bearer <access token>`; sets `request.user`. Sign-in comes first, before the body is read or checked. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    user: UserRow | null;
    tokenId: number | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

export default fp(async (app) => {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const secret = bearerToken(request);
    if (!secret) throw unauthorized();
    // Expired, revoked or idle for longer than ACCESS_TOKEN_IDLE_MINUTES: the same 401.
    const found = await findAccessToken(app.db, secret, app.config.accessTokenIdleMinutes);
    if (!found) throw unauthorized();
    request.user = found.user;
    request.tokenId = found.token.id;
  });
}, { name: 'auth', dependencies: ['config', 'database'], fastify: '5.x' });
