import fp from 'fastify-plugin';
import { loadFlowRegistry, type FlowRegistry } from '../flows/registry';

declare module 'fastify' {
  interface FastifyInstance {
    flows: FlowRegistry;
  }
}

/** The flow files and step schemas (`flows/`, `schemas/`), read and checked once at start. Not encapsulated: the schemas are the app's. */
export default fp(
  async (app) => {
    const flows = loadFlowRegistry();
    app.decorate('flows', flows);
    // Step schemas registered once: routes take them by `$id` (`{ $ref: 'documents.json#' }`), and the
    // OpenAPI document lists them as components.
    for (const schema of flows.schemas.values()) app.addSchema(schema);
  },
  { name: 'flows', fastify: '5.x' },
);
