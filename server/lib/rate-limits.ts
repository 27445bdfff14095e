import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { RateLimits } from '../config';
import { HttpError } from './http-errors';

/** The answer of every per-address limit (429, `Retry-After`, the `{ message, payload }` envelope). */
export const TOO_MANY_REQUESTS = 'Prea multe încercări. Te rugăm să încerci din nou peste câteva minute.';

/** The counters' store (Redis) cannot be reached: the limits are not skipped, the request is refused. */
export const LIMITS_UNAVAILABLE = 'Serviciul nu este disponibil acum. Te rugăm să încerci din nou peste câteva minute.';

const HOUR_MS = 60 * 60 * 1000;

/** Runs a counter operation; a store failure (Redis down) becomes a 503 with a Romanian message. */
export async function counted<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(503, LIMITS_UNAVAILABLE, null, error);
  }
}

/** The client address (TRUST_PROXY applies); an IPv6 client counts by its /64, as the plugin's own key does. */
const address = (request: FastifyRequest) => normalizeIP(request.ip);

export type AddressLimitName = keyof RateLimits;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Per-address limits as hooks: `onRequest: [app.authenticate, app.addressLimit.upload]`. One
     * counter per name, shared by every route that uses the hook (uploads: identity photos,
     * documents, signature).
     */
    addressLimit: Record<AddressLimitName, (request: FastifyRequest) => Promise<void>>;
    /** Failed logins per client address: `blockedFor` before checking a password, `fail` after a wrong one. */
    loginFailures: { blockedFor(request: FastifyRequest): Promise<number>; fail(request: FastifyRequest): Promise<void> };
  }
}

/**
 * The per-address limits, counted by @fastify/rate-limit: in Redis when `REDIS_URL` is set (every
 * instance counts together, keys `{prefix}rl:{name}:{address}`), else in this process's memory.
 */
export async function registerAddressLimits(app: FastifyInstance): Promise<void> {
  // global: false — no route is limited unless it uses one of the hooks below.
  await app.register(fastifyRateLimit, { global: false, ...(app.redis ? { redis: app.redis, nameSpace: `${app.redisPrefix}rl:` } : {}) });
  const limits = app.config.rateLimits;

  const hooks = {} as Record<AddressLimitName, (request: FastifyRequest) => Promise<void>>;
  for (const name of Object.keys(limits) as AddressLimitName[]) {
    const check = app.createRateLimit({ max: limits[name], timeWindow: HOUR_MS, keyGenerator: (request) => `${name}:${address(request)}` });
    hooks[name] = async (request) => {
      const result = await counted(() => check(request));
      if (!result.isAllowed && result.isExceeded) {
        throw new HttpError(429, TOO_MANY_REQUESTS, { retry_after: Math.max(1, result.ttlInSeconds) });
      }
    };
  }
  app.decorate('addressLimit', hooks);

  const { loginAddressMaxFailures: max, loginWindowMs } = app.config;
  const failures = app.createRateLimit({ max, timeWindow: loginWindowMs, keyGenerator: (request) => `login-failures:${address(request)}` });
  app.decorate('loginFailures', {
    async blockedFor(request: FastifyRequest) {
      const seen = await counted(() => failures(request, { increment: false }));
      return !seen.isAllowed && seen.remaining <= 0 ? Math.max(1, seen.ttlInSeconds) : 0;
    },
    async fail(request: FastifyRequest) {
      await counted(() => failures(request));
    },
  });
}
