import fp from 'fastify-plugin';
import { loadFlowRegistry, type FlowRegistry } from '../flows/registry';
import type { Flow } from '../../src/core/flow';

declare module 'fastify' {
  interface FastifyInstance {
    flows: FlowRegistry;
  }
}

/** The flow files and step schemas (`flows/`, `schemas/`), read and checked once at start. Not encapsulated: the schemas are the app's. */
export default fp<{ flows?: Flow[] }>(
  async (app, options) => {
    // Tests may run other flow files (a reordered copy); they are checked like flows/*.json.
    const flows = loadFlowRegistry(options.flows);
    app.decorate('flows', flows);
    // Step schemas registered once: routes take them by `$id` (`{ $ref: 'documents.json#' }`), and the
    // OpenAPI document lists them as components.
    for (const schema of flows.schemas.values()) app.addSchema(schema);
  },
  { name: 'flows', fastify: '5.x' },
);
