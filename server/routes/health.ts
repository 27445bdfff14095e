import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { sql } from 'drizzle-orm';
import { replies, errorReplies, envelope } from '../lib/api-schemas';

/** Each dependency must answer within this long, or the instance is not ready. */
export const READY_TIMEOUT_MS = 2000;
/** A storage key that is never written: reading it proves the storage answers (null, not an error). */
const PROBE_KEY = '0'.repeat(40);

export const HEALTH_MESSAGES = {
  live: 'Serverul funcționează.',
  ready: 'Serverul este pregătit.',
  notReady: 'Serverul nu este pregătit: o parte de care depinde nu răspunde.',
} as const;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

type Check = 'database' | 'redis' | 'storage';

const checkResult = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    checks: {
      type: 'object',
      description: 'Each dependency checked: "ok" or "failed" (Redis only when REDIS_URL is set).',
      additionalProperties: { type: 'string', enum: ['ok', 'failed'] },
    },
    failed: { type: 'array', items: { type: 'string' } },
  },
} as const;

/**
 * Health for a load balancer or an orchestrator (Docker HEALTHCHECK, compose): `live` says the
 * process answers; `ready` that it can serve, i.e. the database, Redis (when configured) and the
 * file storage answer, each within READY_TIMEOUT_MS; else 503 naming what failed.
 */
export default (async (app: FastifyInstance) => {
  const checks: Record<Check, (() => Promise<unknown>) | null> = {
    database: () => app.db.execute(sql`select 1`),
    // The app's own connection (server/plugins/redis.ts): a ping proves this instance reaches Redis.
    redis: app.redis ? () => app.redis!.ping() : null,
    storage: () => app.storage.get(PROBE_KEY),
  };

  app.get('/health/live', { schema: { response: replies({ type: 'object', properties: { status: { type: 'string' } } }) } }, async () => ({
    message: HEALTH_MESSAGES.live,
    payload: { status: 'live' },
  }));

  app.get('/health/ready', { schema: { response: { 200: envelope(checkResult), 503: envelope(checkResult), ...errorReplies } } }, async (request, reply) => {
    const results: Partial<Record<Check, 'ok' | 'failed'>> = {};
    await Promise.all(
      (Object.entries(checks) as [Check, (() => Promise<unknown>) | null][]).map(async ([name, check]) => {
        if (!check) return;
        try {
          await within(check(), READY_TIMEOUT_MS);
          results[name] = 'ok';
        } catch (error) {
          request.log.warn({ err: error, check: name }, 'readiness check failed');
          results[name] = 'failed';
        }
      }),
    );
    const failed = Object.entries(results).filter(([, r]) => r === 'failed').map(([name]) => name).sort();
    if (failed.length) reply.code(503);
    return {
      message: failed.length ? HEALTH_MESSAGES.notReady : HEALTH_MESSAGES.ready,
      payload: { status: failed.length ? 'not_ready' : 'ready', checks: results, failed },
    };
  });
}) satisfies FastifyPluginAsync;
