import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { resolveOpsToken, sameToken } from '../lib/ops-token';
import { bearerToken } from '../plugins/auth';
import { opsActorName, withOpsActor } from '../staff/audit';
import { OPS_MESSAGES } from './messages';

/** The operator `X-Ops-Actor` names (checked by the onRequest hook before any handler). */
export const operatorOf = (request: FastifyRequest): string => opsActorName(request.headers['x-ops-actor']) ?? '';

/**
 * The guard of every operator route, for each plugin of `/api/ops/…` routes (server/routes/ops.ts,
 * ops-retention.ts), called first in it: 404 while the API is off, 401 without the ops token,
 * 422 without `X-Ops-Actor`; and every handler runs with the operator's name, which signs every
 * audit entry it writes (the services' changes included).
 */
export function guardOpsRoutes(app: FastifyInstance): void {
  const token = resolveOpsToken(app.config);

  app.addHook('onRequest', async (request) => {
    if (!token) throw new HttpError(404, OPS_MESSAGES.disabled);
    const given = bearerToken(request);
    if (!given || !sameToken(given, token)) throw new HttpError(401, OPS_MESSAGES.unauthorized);
    const actor = opsActorName(request.headers['x-ops-actor']);
    if (!actor) throw new FieldValidationError({ 'X-Ops-Actor': [OPS_MESSAGES.actor] }, OPS_MESSAGES.actor);
  });

  // Every entry a handler writes (the services' changes included) is signed with the operator's name.
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return withOpsActor(operatorOf(request), async () => handler.call(this, request, reply));
    };
  });
}
