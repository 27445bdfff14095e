import { evaluate } from './conditions';
import { isPointer, readPointer } from './pointer';
import type { FlowContext, FlowStep, PayloadMapping, SubmitBranch } from './types';

/** Builds a request body from form data with a flow file's payload mapping. */
export function buildPayload(mapping: PayloadMapping, formData: Record<string, unknown>, stepId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, source] of Object.entries(mapping)) {
    if (typeof source === 'object') body[key] = source.const;
    else if (source === '$step') body[key] = stepId;
    else if (isPointer(source)) {
      const value = readPointer(formData, source);
      body[key] = value === undefined ? null : value;
    } else body[key] = source;
  }
  return body;
}

export interface SubmitPlan {
  endpoint: string;
  method: 'POST';
  encoding: 'json' | 'multipart';
  body: Record<string, unknown>;
  navigate: string | null;
  /** The step's follow-up call (the payment redirect), with its body; null for branches and most steps. */
  then: { endpoint: string; body: Record<string, unknown>; redirect: string } | null;
}

/** What submitting a step sends: the first branch whose condition holds, else the step's own submit. */
export function planSubmit(step: FlowStep, context: FlowContext): SubmitPlan {
  const branch: SubmitBranch | undefined = step.submit.branches?.find((b) => evaluate(b.when, context));
  const target = branch ?? step.submit;
  return {
    endpoint: target.endpoint,
    method: 'POST',
    encoding: branch ? 'json' : (step.submit.encoding ?? 'json'),
    body: buildPayload(target.payload, context.formData, step.id),
    navigate: branch ? (branch.navigate ?? null) : (step.submit.navigate ?? null),
    then:
      !branch && step.submit.then
        ? { endpoint: step.submit.then.endpoint, body: buildPayload(step.submit.then.payload, context.formData, step.id), redirect: step.submit.then.redirect }
        : null,
  };
}

/**
 * A step's form data rebuilt from what the request keeps (the inverse of `submit.store`): the
 * browser's initial form data, and what the server re-validates on steps/next.
 */
export function storedStepData(step: FlowStep, formData: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [formKey, bodyKey] of Object.entries(step.submit.store ?? {})) {
    if (bodyKey !== null && formData[formKey] !== undefined) data[bodyKey] = formData[formKey];
  }
  return data;
}
