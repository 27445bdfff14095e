import { mergePatch } from './resolve';
import type { Flow, FlowStep } from './types';

/** One way a request may see a step: the base step as written, or the step with one variant's patch applied. */
export interface StepVersion {
  /** The step as that version shows it (the patch merged into the base step). */
  step: FlowStep;
  /** The base step as written in the flow file. */
  base: FlowStep;
  /** The variant whose patch this is; null for the base step. */
  variant: string | null;
  /** The patch as written (null for the base step and for a variant that drops the step). */
  patch: Partial<FlowStep> | null;
  /** Whether this version drops the step (a `null` patch, `skip: true`). */
  dropped: boolean;
}

/**
 * Every version of every step of a flow: each base step, then each variant's patch of it, in file
 * order (a patch of a step the flow does not have is left out; flows:check reports it). The one
 * place that walks "a step in the base flow or in any variant", for the server's routes, the
 * checker and the browser.
 */
export function stepVersions(flow: Flow): StepVersion[] {
  const versions: StepVersion[] = [];
  for (const base of flow.steps) {
    versions.push({ step: base, base, variant: null, patch: null, dropped: !!base.skip });
    for (const variant of flow.variants ?? []) {
      if (!Object.hasOwn(variant.steps, base.id)) continue;
      const patch = variant.steps[base.id] ?? null;
      const step = patch === null ? { ...base, skip: true } : (mergePatch(base, patch) as FlowStep);
      versions.push({ step, base, variant: variant.id, patch, dropped: patch === null || !!step.skip });
    }
  }
  return versions;
}

/**
 * The versions the server makes a route for: those of the ready steps (a variant does not open a
 * step the base flow marks pending), the base steps first (file order), then the variants'. The
 * step endpoints (server/registration/step-endpoints.ts) and their operations in the API
 * description (server/lib/openapi-operations.ts) both read it, so they name the same routes.
 */
export function routedStepVersions(flow: Flow): StepVersion[] {
  const versions = stepVersions(flow).filter((v) => v.base.status !== 'pending');
  return [...versions.filter((v) => v.variant === null), ...versions.filter((v) => v.variant !== null)];
}
