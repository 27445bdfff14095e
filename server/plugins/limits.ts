import fp from 'fastify-plugin';
import { AttemptLimiter } from '../lib/attempt-limiter';
import { registerAddressLimits } from '../lib/rate-limits';

declare module 'fastify' {
  interface FastifyInstance {
    limits: { loginEmail: AttemptLimiter; forgotEmail: AttemptLimiter };
  }
}

/**
 * Limits: failed logins and reset mails per e-mail, and the per-address limits (login failures,
 * registration, uploads, …; server/lib/rate-limits.ts). Registered before the routes that use them.
 */
export default fp(
  async (app) => {
    app.decorate('limits', {
      loginEmail: new AttemptLimiter(app.config.loginMaxAttempts, app.config.loginWindowMs),
      forgotEmail: new AttemptLimiter(5, app.config.loginWindowMs),
    });
    await registerAddressLimits(app);
  },
  { name: 'limits', dependencies: ['config'], fastify: '5.x' },
);
