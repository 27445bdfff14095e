import fp from 'fastify-plugin';
import type { AppConfig } from '../config';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}

/** The configuration (server/config.ts, validated at start) as `app.config`. */
export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    app.decorate('config', config);
  },
  { name: 'config', fastify: '5.x' },
);
