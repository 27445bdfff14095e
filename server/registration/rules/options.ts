import type { FlowStep } from '../../../src/core/flow';

/** The `ui:options` of a step (or of one of its fields) as the flow resolves them for the request. */
export function stepOptions(step: Pick<FlowStep, 'uiSchema'> | undefined, field?: string): Record<string, unknown> {
  const ui = (step?.uiSchema ?? {}) as Record<string, unknown>;
  const node = (field ? ui[field] : ui) as Record<string, unknown> | undefined;
  const options = node?.['ui:options'];
  return options && typeof options === 'object' ? (options as Record<string, unknown>) : {};
}
