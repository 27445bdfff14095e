import { evaluate, type Condition, type Flow, type FlowStep, type SubmitBranch } from '@/core/flow';

/**
 * Which walks the flow walker makes through a flow file (tests/e2e/flow-walker.spec.ts), derived from
 * the flow file and the seed data (partners, activities), never listed by hand. Pure: no Playwright,
 * no files (tests/scripts/walk-plan.test.ts).
 *
 * - `--all` (`planWalks(..., { all: true })`): every partner × every activity that matters: each activity
 *   some condition of the file names, and one that none names (what every other activity sees). A flow
 *   without an activities step has one walk per partner.
 * - the CI set (default): a small cover of those walks, chosen greedily, in which every variant of the
 *   file applies in at least one walk and every partner is walked once. A variant whose condition reads
 *   the form data (`dossier-sent`: the overview after sending) starts to apply once the applicant is past
 *   the steps it changes: the walk credited with it goes back to them (`revisit`).
 * - branches: one short test per submit branch of a step that leaves the flow (`navigate`), such as the
 *   questionnaire's "lost" answer that opens its info page.
 */

export interface SeedPartner {
  slug: string;
  is_unaffiliated: boolean;
}

export interface SeedActivity {
  id: number;
  code: string;
}

export interface Walk {
  /** "walks the 10 steps for partner icredit with activity consultant-credite". */
  title: string;
  partner: string;
  /** The activity chosen at the activities step; null when the flow has none. */
  activity: string | null;
  /** Variants this walk must meet (the walker compares them with the server's `variants` on the way). */
  variants: string[];
  /** Variants to go back for once they apply: they change steps the walk has passed. */
  revisit: string[];
}

export interface BranchWalk {
  title: string;
  partner: string;
  /** The step whose submit branch is taken, and the branch's index in `submit.branches`. */
  step: string;
  branch: number;
  /** The named route the branch opens. */
  route: string;
}

export interface WalkPlan {
  walks: Walk[];
  branches: BranchWalk[];
}

/** The widget or field the walker fills a step with: its `ui:field`, else its first `ui:widget`, else rjsf's own inputs. */
export function componentOf(step: Pick<FlowStep, 'uiSchema'>): string {
  const ui = (step.uiSchema ?? {}) as Record<string, unknown>;
  if (typeof ui['ui:field'] === 'string') return ui['ui:field'];
  for (const value of Object.values(ui)) {
    const widget = (value as Record<string, unknown> | null)?.['ui:widget'];
    if (typeof widget === 'string') return widget;
  }
  // No custom widget: rjsf's own inputs (the fiscal code).
  return '$form';
}

/** The step where the applicant chooses an activity (the `activities` field), if the flow has one. */
export function activitiesStep(flow: Flow): FlowStep | undefined {
  return flow.steps.find((step) => componentOf(step) === 'activities');
}

/** Every condition of a flow file: steps' and variants' `when`, submit branches', in patches too. */
export function conditionsOf(flow: Flow): Condition[] {
  const out: Condition[] = [];
  const ofStep = (step: Partial<FlowStep> | null) => {
    if (!step) return;
    if (step.when) out.push(step.when);
    for (const branch of step.submit?.branches ?? []) if (branch?.when) out.push(branch.when);
  };
  flow.steps.forEach(ofStep);
  for (const variant of flow.variants ?? []) {
    out.push(variant.when);
    Object.values(variant.steps).forEach(ofStep);
  }
  return out;
}

function leaves(condition: Condition): Condition[] {
  if ('all' in condition) return condition.all.flatMap(leaves);
  if ('any' in condition) return condition.any.flatMap(leaves);
  if ('not' in condition) return leaves(condition.not);
  return [condition];
}

/** Whether a condition reads the form data (`field`): it holds or not by what the applicant answered, not by who walks. */
export function readsFormData(condition: Condition): boolean {
  return leaves(condition).some((leaf) => 'field' in leaf);
}

/**
 * A condition decided by who walks (partner, activity) alone: true, false, or undefined when it also
 * depends on what happens on the way (the payment, the form data) and may hold at some point of the walk.
 */
export function decide(condition: Condition, partner: SeedPartner, activity: string | null): boolean | undefined {
  if ('all' in condition) {
    const parts = condition.all.map((c) => decide(c, partner, activity));
    if (parts.includes(false)) return false;
    return parts.every((p) => p === true) ? true : undefined;
  }
  if ('any' in condition) {
    const parts = condition.any.map((c) => decide(c, partner, activity));
    if (parts.includes(true)) return true;
    return parts.every((p) => p === false) ? false : undefined;
  }
  if ('not' in condition) {
    const part = decide(condition.not, partner, activity);
    return part === undefined ? undefined : !part;
  }
  if ('partner' in condition || 'activity' in condition || 'unaffiliated' in condition) {
    return evaluate(condition, { partner: partner.slug, unaffiliated: partner.is_unaffiliated, activity, formData: {} });
  }
  return undefined;
}

/**
 * The activities worth a walk, in seed order: every one a condition names (and the seed has), then one
 * that none names: the example's activity if no condition names it, else the first such in the seed.
 * Empty when the flow has no activities step.
 */
export function activitiesThatMatter(flow: Flow, activities: SeedActivity[]): string[] {
  const step = activitiesStep(flow);
  if (!step) return [];
  const named = new Set<string>();
  for (const condition of conditionsOf(flow)) {
    for (const leaf of leaves(condition)) if ('activity' in leaf) [leaf.activity].flat().forEach((code) => named.add(code));
  }
  const exampleId = step.examples?.[0]?.activity_id;
  const unnamed = activities.filter((a) => !named.has(a.code));
  const other = unnamed.find((a) => a.id === exampleId) ?? unnamed[0];
  return [...activities.filter((a) => named.has(a.code)).map((a) => a.code), ...(other ? [other.code] : [])];
}

function walkTitle(flow: Flow, partner: string, activity: string | null): string {
  return `walks the ${flow.steps.length} steps for partner ${partner}${activity ? ` with activity ${activity}` : ''}`;
}

interface Candidate {
  partner: SeedPartner;
  activity: string | null;
  /** Variants that apply for sure (decided by partner and activity). */
  certain: string[];
  /** Variants that may apply at some point of the walk (the certain ones too). */
  possible: string[];
}

function candidates(flow: Flow, partners: SeedPartner[], activities: SeedActivity[]): Candidate[] {
  const codes = activitiesThatMatter(flow, activities);
  return partners.flatMap((partner) =>
    (codes.length ? codes : [null]).map((activity) => {
      const decided = (flow.variants ?? []).map((v) => [v.id, decide(v.when, partner, activity)] as const);
      return {
        partner,
        activity,
        certain: decided.filter(([, d]) => d === true).map(([id]) => id),
        possible: decided.filter(([, d]) => d !== false).map(([id]) => id),
      };
    }),
  );
}

/**
 * Greedy set cover: the walk that covers most of what is not covered yet (variants, and each partner
 * once); on a tie, the partner and then the activity walked least so far (different pairings meet
 * more of how variants combine), then the earlier one. Credits each covered variant to one walk.
 */
function cover(all: Candidate[]): { walk: Candidate; credited: string[] }[] {
  const covers = all.map((c) => [...c.possible, `partner:${c.partner.slug}`]);
  const uncovered = new Set(covers.flat());
  const chosen: { index: number; credited: string[] }[] = [];
  const used = (key: (c: Candidate) => string | null, c: Candidate) => chosen.filter(({ index }) => key(all[index]) === key(c)).length;
  while (uncovered.size) {
    let best = -1;
    let bestScore: number[] = [];
    all.forEach((c, index) => {
      if (chosen.some((x) => x.index === index)) return;
      const gain = covers[index].filter((v) => uncovered.has(v)).length;
      if (!gain) return;
      const score = [gain, -used((w) => w.partner.slug, c), -used((w) => w.activity, c)];
      if (best < 0 || lexicallyGreater(score, bestScore)) {
        best = index;
        bestScore = score;
      }
    });
    const credited = covers[best].filter((v) => uncovered.has(v));
    credited.forEach((v) => uncovered.delete(v));
    chosen.push({ index: best, credited: credited.filter((v) => !v.startsWith('partner:')) });
  }
  return chosen.sort((a, b) => a.index - b.index).map(({ index, credited }) => ({ walk: all[index], credited }));
}

function lexicallyGreater(a: number[], b: number[]): boolean {
  const i = a.findIndex((x, j) => x !== b[j]);
  return i >= 0 && a[i] > b[i];
}

/** The short tests of the submit branches that leave the flow (each step's, as written), for the first partner. */
function branchWalks(flow: Flow, partners: SeedPartner[]): BranchWalk[] {
  const partner = partners[0];
  return flow.steps.flatMap((step) =>
    (step.submit.branches ?? []).flatMap((branch, index) =>
      branch.navigate
        ? [{ title: `takes ${step.id}'s branch ${index + 1} (${branch.endpoint}) to ${branch.navigate} for partner ${partner.slug}`, partner: partner.slug, step: step.id, branch: index, route: branch.navigate }]
        : [],
    ),
  );
}

/** The walks of a flow file: every partner × activity that matters (`all`), or the CI set; and its branches. */
export function planWalks(flow: Flow, partners: SeedPartner[], activities: SeedActivity[], options: { all?: boolean } = {}): WalkPlan {
  const all = candidates(flow, partners, activities);
  const formVariants = new Set((flow.variants ?? []).filter((v) => readsFormData(v.when)).map((v) => v.id));
  const chosen = cover(all);
  const credit = new Map(chosen.map(({ walk, credited }) => [walk, credited]));
  const walks = (options.all ? all : chosen.map(({ walk }) => walk)).map((c): Walk => {
    const credited = credit.get(c) ?? [];
    return {
      title: walkTitle(flow, c.partner.slug, c.activity),
      partner: c.partner.slug,
      activity: c.activity,
      variants: [...new Set([...c.certain, ...credited])].sort((a, b) => variantOrder(flow, a) - variantOrder(flow, b)),
      revisit: credited.filter((v) => formVariants.has(v)),
    };
  });
  return { walks, branches: branchWalks(flow, partners) };
}

function variantOrder(flow: Flow, id: string): number {
  return (flow.variants ?? []).findIndex((v) => v.id === id);
}

/** Variants of the file that no walk of `walks` meets (what the CI set must leave empty). */
export function uncoveredVariants(flow: Flow, walks: Walk[]): string[] {
  const met = new Set(walks.flatMap((w) => w.variants));
  return (flow.variants ?? []).map((v) => v.id).filter((id) => !met.has(id));
}

/**
 * Form data for a branch: the step's example with one field set to one of `choices` (the values its
 * widget offers), the first that makes the branch's condition hold; null when none does.
 */
export function branchExample(example: Record<string, unknown>, branch: Pick<SubmitBranch, 'when'>, choices: unknown[]): Record<string, unknown> | null {
  const fields = [...new Set(leaves(branch.when).flatMap((leaf) => ('field' in leaf ? [leaf.field.replace(/^\//, '').split('/')[0]] : [])))];
  for (const field of fields) {
    for (const choice of choices) {
      const data = { ...example, [field]: Array.isArray(example[field]) ? [choice] : choice };
      if (evaluate(branch.when, { partner: null, activity: null, formData: data })) return data;
    }
  }
  return null;
}

/**
 * The pricing example for the partner walked: the example's price when it is one of the partner's
 * (what the page offers: the request's `partner.prices`), else the partner's first price. A new
 * partner thus needs no pricing example in the flow files.
 */
export function priceExample(step: Pick<FlowStep, 'uiSchema'>, example: Record<string, unknown> | undefined, prices: { stripe_id: string }[]): Record<string, unknown> | undefined {
  const ui = (step.uiSchema ?? {}) as Record<string, { 'ui:widget'?: string } | undefined>;
  const field = Object.keys(ui).find((key) => ui[key]?.['ui:widget'] === 'pricePlans');
  if (!field || !prices.length) return example;
  if (prices.some((p) => p.stripe_id === example?.[field])) return example;
  return { ...example, [field]: prices[0].stripe_id };
}
