import { evaluate, formDataMeeting, mergePatch, resolveFlow, type Condition, type Flow, type FlowContext } from '../../src/core/flow';
import { isKnownRouteName } from '../../src/core/routes';
import { LANGUAGES } from '../messages';
import type { CheckInput } from './check-input';
import type { Schemas } from './check-schemas';
import { hasLocaleKey, LOCALE_KEY, slugProblems, stepProblems, text, type Json, type StepProblem } from './check-step';
import { escapeSegment, isPlainObject, pointerSegments, toPointer, type Problem } from './problems';
import { describeErrors } from './schema-errors';
import { writtenAt, type Layer } from './written-at';

/** Reports a problem of the file being checked at a JSON pointer into it. */
export type Report = (level: Problem['level'], pointer: string, message: string) => void;

/**
 * flows:check's checks of one flow file (server/flows/check.ts): against the meta-schema; its ids,
 * paths, calls and variants; then its steps (server/flows/check-step.ts) as written, each patch as
 * written and on its base step, and as every request a flow can meet sees them. `types`: the
 * registration types of the files checked before it.
 */
export function checkFile(input: CheckInput, schemas: Schemas, types: Map<number, string>, file: string, raw: unknown, report: Report): void {
  const { checkMeta, checkStep, checkPatch } = schemas;
  const metaErrors = checkMeta(raw) ? [] : describeErrors(checkMeta.errors ?? []);
  for (const e of metaErrors) report('error', e.pointer, e.message);
  if (!isPlainObject(raw)) return;
  const flow = raw;

  if (typeof flow.registrationType === 'number') {
    if (types.has(flow.registrationType)) report('error', '/registrationType', `registration type ${flow.registrationType} is already used by ${types.get(flow.registrationType)}`);
    else types.set(flow.registrationType, file);
  }
  if (isPlainObject(flow.api)) {
    for (const [name, endpoint] of Object.entries(flow.api)) {
      const method = name === 'open' ? 'GET' : 'POST';
      if (typeof endpoint === 'string' && !input.routeExists(method, endpoint)) report('error', `/api/${escapeSegment(name)}`, `${method} ${endpoint} is not a route of the server`);
    }
  }

  const steps: unknown[] = Array.isArray(flow.steps) ? flow.steps : [];
  const variants: unknown[] = Array.isArray(flow.variants) ? flow.variants : [];
  const basePath = text(flow.basePath);
  const baseIndex = new Map<string, number>();
  const seenPaths = new Set<string>();
  steps.forEach((step, i) => {
    if (!isPlainObject(step)) return;
    const id = text(step.id);
    const stepPath = text(step.path);
    if (id !== null) {
      if (baseIndex.has(id)) report('error', `/steps/${i}/id`, `step id ${id} is used twice`);
      else baseIndex.set(id, i);
    }
    if (stepPath !== null) {
      if (seenPaths.has(stepPath)) report('error', `/steps/${i}/path`, `path ${stepPath} is used twice`);
      seenPaths.add(stepPath);
      if (basePath !== null && !stepPath.startsWith(`${basePath}/`)) report('error', `/steps/${i}/path`, `path ${stepPath} is not under ${basePath}`);
    }
  });
  // Structural mistakes already reported: a patched step is not checked against the step schema again.
  const brokenAt = (pointer: string) => metaErrors.some((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`));

  const variantIds = new Map<string, number>();
  const unknownSlugs = new Set<number>();
  variants.forEach((variant, v) => {
    if (!isPlainObject(variant)) return;
    const id = text(variant.id);
    if (id !== null) {
      if (variantIds.has(id)) report('error', `/variants/${v}/id`, `variant id ${id} is used twice`);
      else variantIds.set(id, v);
    }
    if (checkSlugs(input, variant.when, [], `/variants/${v}/when`, 'error', report)) unknownSlugs.add(v);
    if (!isPlainObject(variant.steps)) return;
    for (const [stepId, patch] of Object.entries(variant.steps)) {
      const pointer = `/variants/${v}/steps/${escapeSegment(stepId)}`;
      if (!baseIndex.has(stepId) && Array.isArray(flow.steps)) report('error', pointer, `variant ${id ?? v} patches unknown step ${stepId}`);
      if (isPlainObject(patch) && 'id' in patch && patch.id !== stepId) report('error', `${pointer}/id`, `a variant cannot change a step's id (the step is ${stepId})`);
    }
  });
  const paidRoute = text(flow.paidRoute);
  if (paidRoute !== null && !isKnownRouteName(paidRoute)) report('error', '/paidRoute', `paidRoute ${paidRoute} is not a named route (src/core/routes.ts)`);
  const title = text(flow.title);
  if (title !== null && LOCALE_KEY.test(title)) {
    for (const lng of LANGUAGES) if (!hasLocaleKey(input.locales, lng, title)) report('error', '/title', `locale key ${title} is missing in locales/${lng}`);
  }

  /** A step's problems at the place each is written; `tag` names the variants of a problem that sits in the base step. */
  const emit = (found: StepProblem[], base: Layer, patches: Layer[], tag: string) => {
    for (const p of found) {
      const at = writtenAt(p.at.map(String), base, patches);
      const inBase = at === base.pointer || at.startsWith(`${base.pointer}/`);
      report(p.level, at, `${p.message}${inBase && tag ? ` (with ${tag})` : ''}`);
    }
  };
  const structure = (step: unknown): StepProblem[] =>
    checkStep(step) ? [] : describeErrors(checkStep.errors ?? []).map((e) => ({ at: requiredAt(e.pointer, e.message), level: 'error' as const, message: e.message }));

  // 1. Each base step as written.
  steps.forEach((step, i) => {
    if (isPlainObject(step)) emit(stepProblems(input, schemas, step, true), { pointer: `/steps/${i}`, value: step }, [], '');
  });

  // 2. Each patch as written, and on its base step alone (what it says is checked even if no request meets its variant).
  const patchBroken = new Set<string>();
  variants.forEach((variant, v) => {
    if (!isPlainObject(variant) || !isPlainObject(variant.steps)) return;
    for (const [stepId, patch] of Object.entries(variant.steps)) {
      const pointer = `/variants/${v}/steps/${escapeSegment(stepId)}`;
      if (!isPlainObject(patch)) continue;
      if (!checkPatch(patch)) {
        patchBroken.add(pointer);
        for (const e of describeErrors(checkPatch.errors ?? [])) report('error', `${pointer}${e.pointer}`, e.message);
      }
      const i = baseIndex.get(stepId);
      if (i === undefined || !isPlainObject(steps[i])) continue;
      const base = { pointer: `/steps/${i}`, value: steps[i] };
      const merged = mergePatch(steps[i], patch) as Json;
      const layers = [{ pointer, value: patch }];
      const tag = text(variant.id) ?? `variant ${v}`;
      if (!patchBroken.has(pointer) && !brokenAt(base.pointer)) emit(structure(merged), base, layers, tag);
      emit(stepProblems(input, schemas, merged, false), base, layers, tag);
    }
  });

  // 3. Every request a flow can meet: each partner with each activity, paid or not; variants on form
  // data (the overview after sending) with those fields filled in. Only what can be resolved takes part:
  // a variant or a `when` the meta-schema refuses is left out (its mistake is reported above).
  const usable = sanitize(schemas, steps, variants);
  const filled = formDataMeeting(usable.variants.map(({ variant }) => variant.when));
  const contexts: FlowContext[] = [];
  for (const partner of input.partners) {
    for (const activity of [null, ...input.activities]) {
      for (const extra of Object.keys(filled).length ? [{}, filled] : [{}]) {
        for (const paid of [false, true]) {
          contexts.push({ partner: partner.slug, unaffiliated: partner.unaffiliated, paid, activity, formData: { ...(activity ? { activity } : {}), ...extra } });
        }
      }
    }
  }
  const reached = new Set<string>();
  const applied = new Set<number>();
  const seen = new Set<string>();
  const resolvable = { ...flow, steps: usable.steps, variants: usable.variants.map(({ variant }) => variant) } as unknown as Flow;
  for (const context of contexts) {
    const meeting = usable.variants.filter(({ variant }) => evaluate(variant.when, context));
    meeting.forEach(({ index }) => applied.add(index));
    let resolved;
    try {
      resolved = resolveFlow(resolvable, context);
    } catch (error) {
      report('error', '', `the steps cannot be resolved for partner ${context.partner}, activity ${context.activity ?? '(none)'}: ${(error as Error).message}`);
      continue;
    }
    for (const step of resolved.steps) {
      reached.add(step.id);
      const i = baseIndex.get(step.id);
      if (i === undefined) continue;
      const patches = meeting.filter(({ variant }) => isPlainObject(variant.steps[step.id]));
      const fingerprint = JSON.stringify([patches.map(({ index }) => index), step]);
      if (seen.has(fingerprint)) continue;
      seen.add(fingerprint);
      const base = { pointer: `/steps/${i}`, value: steps[i] };
      const layers = patches.map(({ index, variant }) => ({ pointer: `/variants/${index}/steps/${escapeSegment(step.id)}`, value: variant.steps[step.id] }));
      const tag = patches.map(({ variant }) => variant.id).join(', ');
      if (!brokenAt(base.pointer) && !layers.some((l) => patchBroken.has(l.pointer))) emit(structure(step), base, layers, tag);
      emit(stepProblems(input, schemas, step as unknown as Json, true), base, layers, tag);
    }
  }
  steps.forEach((step, i) => {
    const id = isPlainObject(step) ? text(step.id) : null;
    if (id !== null && baseIndex.get(id) === i && !reached.has(id)) report('error', `/steps/${i}`, `step ${id} is reached by no partner or activity`);
  });
  variants.forEach((variant, v) => {
    if (!isPlainObject(variant) || applied.has(v) || unknownSlugs.has(v) || !usable.variants.some(({ index }) => index === v)) return;
    report('warning', `/variants/${v}`, `variant ${text(variant.id) ?? v} applies to no known partner or activity`);
  });
}

/** Reports the partners and activities a condition names that the seed data does not have; true if there were some. */
function checkSlugs(input: CheckInput, condition: unknown, at: (string | number)[], pointer: string, level: Problem['level'], report: Report): boolean {
  const unknown = slugProblems(input, condition, at, level);
  for (const p of unknown) report(p.level, `${pointer}${toPointer(p.at)}`, p.message);
  return unknown.length > 0;
}

/** What of the steps and variants can be resolved: steps with an id, variants with a valid condition, patches that are objects or null. */
function sanitize({ isCondition }: Pick<Schemas, 'isCondition'>, steps: unknown[], variants: unknown[]) {
  const usableWhen = (when: unknown) => when === undefined || isCondition(when);
  const clean = (step: Json): Json => {
    if (usableWhen(step.when)) return step;
    const { when: _when, ...rest } = step;
    void _when;
    return rest;
  };
  return {
    steps: steps.filter((s): s is Json => isPlainObject(s) && typeof s.id === 'string').map(clean),
    variants: variants.flatMap((variant, index) => {
      if (!isPlainObject(variant) || typeof variant.id !== 'string' || !isCondition(variant.when) || !isPlainObject(variant.steps)) return [];
      const patches = Object.entries(variant.steps).filter(([, p]) => p === null || isPlainObject(p));
      const steps = Object.fromEntries(patches.map(([id, p]) => [id, p === null ? null : clean(p as Json)])) as Record<string, Json | null>;
      return [{ index, variant: { ...variant, id: variant.id, when: variant.when as Condition, steps } }];
    }),
  };
}

/** A missing required property is looked up where it would be written (a patch's `null` removes it there). */
function requiredAt(pointer: string, message: string): string[] {
  const missing = /^must have required property "(.+)"$/.exec(message);
  return [...pointerSegments(pointer), ...(missing ? [missing[1]] : [])];
}
