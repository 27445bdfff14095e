import fp from 'fastify-plugin';
import { createIdentityProvider } from '../identity/service';
import type { IdentityProvider } from '../identity/types';

declare module 'fastify' {
  interface FastifyInstance {
    /** The identity verification provider: Veriff when configured, else the built-in simulator. */
    identity: IdentityProvider;
  }
}

/** Identity verification: Veriff (`VERIFF_API_KEY`), else (development only) the built-in simulator. */
export default fp<{ identity?: IdentityProvider }>(
  async (app, options) => {
    app.decorate('identity', options.identity ?? createIdentityProvider(app.config, app.db));
  },
  { name: 'identity', dependencies: ['config', 'database'], fastify: '5.x' },
);
