import fp from 'fastify-plugin';
import { loadFlowRegistry, type FlowRegistry } from '../flows/registry';

declare module 'fastify' {
  interface FastifyInstance {
    flows: FlowRegistry;
  }
}

/** The flow files and step schemas (`flows/`, `schemas/`), read and checked once at start. */
export default fp(
  async (app) => {
    app.decorate('flows', loadFlowRegistry());
  },
  { name: 'flows', fastify: '5.x' },
);
