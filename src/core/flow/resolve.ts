import { evaluate } from './conditions';
import type { Flow, FlowContext, FlowStep } from './types';

type Json = unknown;

/** RFC 7386 JSON merge patch: objects merge, null deletes, everything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, Json> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, Json>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, Json>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

export interface ResolvedFlow extends Omit<Flow, 'variants'> {
  /** Ids of the variants that applied, in order. */
  variants: string[];
  /** Every step after variants, including skipped ones (for checks). */
  allSteps: FlowStep[];
}

/**
 * The flow for one request: variants whose condition holds are applied in file order (a `null`
 * patch, `skip: true` or `done: true` drops a step), then steps whose `when` fails are dropped.
 * `variants`, when given, names the variants to apply instead of their conditions: those the server
 * applied to the request (`RegistrationRequest.variants`), so the browser never decides them again.
 */
export function resolveFlow(flow: Flow, context: FlowContext, variants?: readonly string[]): ResolvedFlow {
  const applied: string[] = [];
  let steps = flow.steps.map((s) => ({ ...s }));
  for (const variant of flow.variants ?? []) {
    if (variants ? !variants.includes(variant.id) : !evaluate(variant.when, context)) continue;
    applied.push(variant.id);
    steps = steps.map((step) => {
      if (!(step.id in variant.steps)) return step;
      const patch = variant.steps[step.id];
      return patch === null ? { ...step, skip: true } : (mergePatch(step, patch) as FlowStep);
    });
  }
  const { variants: _unused, ...rest } = flow;
  void _unused;
  return {
    ...rest,
    variants: applied,
    allSteps: steps,
    steps: steps.filter((s) => !s.skip && !s.done && (!s.when || evaluate(s.when, context))),
  };
}
