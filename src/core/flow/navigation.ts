import type { ResolvedFlow } from './resolve';
import type { FlowStep, StepsInfo } from './types';

export function stepIndex(flow: Pick<ResolvedFlow, 'steps'>, id: string): number {
  return flow.steps.findIndex((s) => s.id === id);
}

/**
 * Each step of a flow file with its 1-based position and the locale key that names it (its short
 * `name`, else its `title`), in the file's order: how staff pages call a step ("Pasul 8 · Dosarul tău").
 * Pass the base flow: a variant may skip steps, but the file's positions are the ones the staff API counts.
 */
export function stepNames(flow: Pick<ResolvedFlow, 'steps'>): { id: string; position: number; name: string }[] {
  return flow.steps.map((step, index) => ({ id: step.id, position: index + 1, name: step.name ?? step.title }));
}

export function firstStep(flow: Pick<ResolvedFlow, 'steps'>): FlowStep {
  return flow.steps[0];
}

/**
 * Where a request stands: previous/current/next and the total (spec 000 §3 `steps`). A current
 * identifier that the resolved flow no longer has (a variant dropped it) counts as the first
 * step after it in the file's order, so a change of partner or activity never strands a request.
 */
export function stepsInfo(flow: ResolvedFlow, currentId: string): StepsInfo {
  let index = stepIndex(flow, currentId);
  if (index < 0) {
    const fileOrder = flow.allSteps.map((s) => s.id);
    const at = fileOrder.indexOf(currentId);
    index = flow.steps.findIndex((s) => fileOrder.indexOf(s.id) > at);
    if (at < 0 || index < 0) index = at < 0 ? 0 : flow.steps.length - 1;
  }
  const current = flow.steps[index];
  return {
    previous: index > 0 ? { identifier: flow.steps[index - 1].id } : null,
    current: { identifier: current.id, index },
    next: index < flow.steps.length - 1 ? { identifier: flow.steps[index + 1].id } : null,
    total: flow.steps.length,
  };
}

/** The step a request stands at, as the resolved flow has it (a dropped step counts as the next one kept). */
export function currentStep(flow: ResolvedFlow, serverStepId: string): FlowStep {
  return flow.steps[stepsInfo(flow, serverStepId).current.index];
}

export function nextStepId(flow: ResolvedFlow, currentId: string): string | null {
  return stepsInfo(flow, currentId).next?.identifier ?? null;
}

export function previousStepId(flow: ResolvedFlow, currentId: string): string | null {
  return stepsInfo(flow, currentId).previous?.identifier ?? null;
}

export type GuardDecision = { action: 'stay' } | { action: 'redirect'; path: string; stepId: string };

/**
 * The step guard (spec 000 §2.2): the route must be the server's current step; otherwise the user
 * is moved there. A step with `"guarded": false` (the questionnaire of each flow: spec 000 §2.1 puts
 * only the later steps behind the guard) stays open at its own address whatever the server's step.
 */
export function guardDecision(flow: ResolvedFlow, routeStepId: string | null, serverStepId: string): GuardDecision {
  const current = currentStep(flow, serverStepId);
  if (routeStepId === current.id) return { action: 'stay' };
  if (routeStepId && flow.steps.some((s) => s.id === routeStepId && s.guarded === false)) return { action: 'stay' };
  return { action: 'redirect', path: current.path, stepId: current.id };
}

/** The step of a path (`/infiintare-pfa/3`), or null. */
export function stepByPath(flow: Pick<ResolvedFlow, 'steps'>, path: string): FlowStep | null {
  const clean = path.replace(/\/+$/, '');
  return flow.steps.find((s) => s.path === clean) ?? null;
}

/**
 * Progress for the wrapper's bar: 1-based position and total. Steps a variant marks `done` (behind
 * the applicant, e.g. the paid pricing step) still count, so paying never shortens the flow
 * ("Pasul 5 din 7" stays "din 7").
 */
export function progress(flow: ResolvedFlow, currentId: string): { position: number; total: number; percent: number } {
  const current = flow.steps[stepsInfo(flow, currentId).current.index];
  const kept = new Set(flow.steps.map((s) => s.id));
  const counted = flow.allSteps.filter((s) => kept.has(s.id) || s.done);
  const at = counted.findIndex((s) => s.id === current.id);
  const position = at + 1;
  const total = counted.length;
  return { position, total, percent: Math.round((position / total) * 100) };
}
