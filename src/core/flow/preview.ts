import { resolveFlow } from './resolve';
import type { Condition, Flow, FlowContext, FlowStep } from './types';

/** Form data in which every `field` condition of `conditions` holds (flows:check and the preview: the overview after sending). */
export function formDataMeeting(conditions: (Condition | undefined)[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const visit = (c: Condition | undefined): void => {
    if (!c) return;
    if ('all' in c) return c.all.forEach(visit);
    if ('any' in c) return c.any.forEach(visit);
    if ('not' in c || !('field' in c)) return;
    const key = c.field.replace(/^\//, '').split('/')[0];
    if (!key) return;
    if ('equals' in c) data[key] = c.equals;
    else if (c.in?.length) data[key] = c.in[0];
    else if ('contains' in c) data[key] = [c.contains];
    else if (c.empty === false) data[key] = 'x';
  };
  conditions.forEach(visit);
  return data;
}

/** Every value of a kind of condition (`activity`, `paid`, `field`) a flow file's variants name. */
function named(conditions: (Condition | undefined)[], kind: 'activity' | 'paid' | 'field'): unknown[] {
  const out: unknown[] = [];
  const visit = (c: Condition | undefined): void => {
    if (!c) return;
    if ('all' in c) return c.all.forEach(visit);
    if ('any' in c) return c.any.forEach(visit);
    if ('not' in c) return visit(c.not);
    if (kind in c) out.push(...[(c as Record<string, unknown>)[kind]].flat());
  };
  conditions.forEach(visit);
  return out;
}

export interface PreviewPartner {
  slug: string;
  is_unaffiliated: boolean;
}

/** The state a preview entry stands in besides partner and activity: as started, paid, or with the form data a field variant names (a sent dossier). */
export type PreviewState = 'start' | 'paid' | 'form';

/** One line of the staff preview's list: a step of a flow file as one partner × activity × state resolves it. */
export interface PreviewEntry {
  stepId: string;
  partner: string;
  /** An activity some variant names, or null (any other activity, none chosen yet). */
  activity: string | null;
  state: PreviewState;
  /** What the variants and conditions see. */
  context: FlowContext;
  /** The variants that changed this step (ids, file order). */
  variants: string[];
  step: FlowStep;
}

/** What a preview entry's variants and conditions see: its partner, activity and state. */
export function previewContext(flow: Flow, partner: PreviewPartner, activity: string | null, state: PreviewState): FlowContext {
  const form = state === 'form' ? formDataMeeting((flow.variants ?? []).map((v) => v.when)) : {};
  return { partner: partner.slug, unaffiliated: partner.is_unaffiliated, paid: state === 'paid', activity, formData: { ...form, ...(activity ? { activity } : {}) } };
}

/**
 * Every step × partner × activity variant × state of a flow file that the applicant can see, in
 * file order, each once: for each partner, an activity or a state is listed for a step only where
 * a variant makes that step differ from the step as the partner sees it otherwise.
 */
export function previewEntries(flow: Flow, partners: PreviewPartner[]): PreviewEntry[] {
  const conditions = (flow.variants ?? []).map((v) => v.when);
  const activities: (string | null)[] = [null, ...new Set(named(conditions, 'activity').filter((a): a is string => typeof a === 'string'))];
  const states: PreviewState[] = ['start', ...(named(conditions, 'paid').length ? ['paid' as const] : []), ...(named(conditions, 'field').length ? ['form' as const] : [])];
  const entries: PreviewEntry[] = [];
  for (const base of flow.steps) {
    for (const partner of partners) {
      const seen = new Set<string>();
      for (const state of states) {
        for (const activity of activities) {
          const resolved = resolveFlow(flow, previewContext(flow, partner, activity, state));
          const step = resolved.steps.find((s) => s.id === base.id);
          if (!step) continue;
          const fingerprint = JSON.stringify(step);
          if (seen.has(fingerprint)) continue;
          seen.add(fingerprint);
          const variants = (flow.variants ?? []).filter((v) => resolved.variants.includes(v.id) && base.id in v.steps).map((v) => v.id);
          entries.push({ stepId: base.id, partner: partner.slug, activity, state, context: previewContext(flow, partner, activity, state), variants, step });
        }
      }
    }
  }
  return entries;
}
