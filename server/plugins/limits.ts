import fp from 'fastify-plugin';
import { MemoryAttemptLimiter, RedisAttemptLimiter, type AttemptLimiter } from '../lib/attempt-limiter';
import { registerAddressLimits } from '../lib/rate-limits';

declare module 'fastify' {
  interface FastifyInstance {
    limits: { loginEmail: AttemptLimiter; forgotEmail: AttemptLimiter };
  }
}

/**
 * Limits: failed logins and reset mails per e-mail, and the per-address limits (login failures,
 * registration, uploads, …; server/lib/rate-limits.ts). In Redis when `REDIS_URL` is set (every
 * instance counts together), else in this process. Registered before the routes that use them.
 */
export default fp(
  async (app) => {
    const { redis, redisPrefix, config } = app;
    const limiter = (name: string, max: number) =>
      redis ? new RedisAttemptLimiter(redis, `${redisPrefix}attempts:${name}:`, max, config.loginWindowMs) : new MemoryAttemptLimiter(max, config.loginWindowMs);
    app.decorate('limits', {
      loginEmail: limiter('login-email', config.loginMaxAttempts),
      forgotEmail: limiter('forgot-email', 5),
    });
    await registerAddressLimits(app);
  },
  { name: 'limits', dependencies: ['config', 'redis'], fastify: '5.x' },
);
