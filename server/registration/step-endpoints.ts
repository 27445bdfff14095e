import { routedStepVersions, stepVersions, type Flow } from '../../src/core/flow';
import { STEP_RULES } from './step-rules';

/** What the route of one step endpoint needs to know, from every version of the steps that submit to it. */
export interface StepEndpoint {
  /** The step schema (`schemas/`, registered once with addSchema by the flows plugin) its body follows. */
  schema: string;
  /** Some version of a step sending here submits files (`submit.encoding: "multipart"`). */
  multipart: boolean;
  /** Some version of a step sending here looks a company up (rule `fiscal-code`): the per-address lookup limit applies. */
  lookup: boolean;
}

/**
 * The endpoints a flow's ready steps submit to, in the base flow or in any variant of it
 * (`routedStepVersions`), each once. An endpoint takes the schema of the step
 * version that names it: a patch that keeps its step's endpoint keeps the base step's body schema.
 */
export function stepEndpoints(flow: Flow): Map<string, StepEndpoint> {
  const endpoints = new Map<string, StepEndpoint>();
  for (const { step, variant, patch } of routedStepVersions(flow)) {
    const endpoint = step.submit.endpoint;
    const known = endpoints.get(endpoint);
    const namesIt = variant === null || !!patch?.submit?.endpoint;
    endpoints.set(endpoint, {
      schema: namesIt || !known ? step.schema : known.schema,
      multipart: !!known?.multipart || step.submit.encoding === 'multipart',
      lookup: !!known?.lookup || step.rule === 'fiscal-code',
    });
  }
  return endpoints;
}

/** A flow that names a rule the server does not have is refused at start (flows:check says it earlier). */
export function checkRuleNames(flow: Flow): void {
  for (const { step, variant } of stepVersions(flow)) {
    if (step.rule !== undefined && !Object.hasOwn(STEP_RULES, step.rule)) {
      const where = variant === null ? `step ${step.id}` : `step ${step.id} (variant ${variant})`;
      throw new Error(`flow ${flow.id}: ${where} names the rule "${step.rule}", which server/registration/step-rules.ts does not have`);
    }
  }
}

/** The body of a step call without the step's own fields: the step it was sent for. */
export const stepBody = {
  type: 'object',
  required: ['current_step_identifier'],
  properties: { current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/** A step's body: its schema by `$id`, plus the step it was sent for. */
export function stepBodySchema(schemaId: string) {
  return { allOf: [stepBody, { $ref: `${schemaId}#` }] };
}
