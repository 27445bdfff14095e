import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis (`REDIS_URL`): rate limits, login counters, ANAF cache and pace; null keeps them in this process. */
    redis: Redis | null;
    /** Prefix of every key this app writes in Redis. */
    redisPrefix: string;
  }
}

/**
 * Redis, when `REDIS_URL` is set: what every instance must share (limits, the ANAF cache and pace).
 * While Redis is unreachable a command fails after one reconnection attempt (the limited routes
 * answer 503) instead of holding the request.
 */
export default fp<{ keyPrefix?: string }>(
  async (app, options) => {
    const { redisUrl, productSlug } = app.config;
    const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 }) : null;
    if (redis) {
      // A lost connection is retried by ioredis; commands meanwhile fail (and are answered as errors).
      redis.on('error', (error) => app.log.warn({ err: error }, 'redis'));
      app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
    }
    app.decorate('redis', redis);
    app.decorate('redisPrefix', options.keyPrefix ?? `${productSlug}:`);
  },
  { name: 'redis', dependencies: ['config'], fastify: '5.x' },
);
