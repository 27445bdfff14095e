import type { FastifyInstance } from 'fastify';
import { checkFlows, checkInput, readFlowFiles } from './check';
import { FLOWS_DIR } from './registry';

/**
 * flows:check's errors for the flow files the server runs on (`flows/`), their calls asked of the app's
 * own routes: the entry (server/server.ts) refuses to start on any, as the staff preview shows them
 * (the registry's own check at load is the meta-schema only; this adds every variant patch, the
 * wiring, the locale keys, the partners, activities and CAEN codes). One line per error:
 * `flows/new-pfa.json#/variants/1/steps/requesting-company-step-6/uischema: …`.
 */
export function flowErrorsAtStart(app: Pick<FastifyInstance, 'hasRoute'>, dir: string = FLOWS_DIR): string[] {
  const input = checkInput(readFlowFiles(dir, 'flows/'), (method, url) => app.hasRoute({ method, url }));
  return checkFlows(input)
    .filter((problem) => problem.level === 'error')
    .map((problem) => `${problem.file}${problem.path}: ${problem.message}`);
}
