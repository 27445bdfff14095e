/**
 * The checks of `npm run flows:check` (scripts/flows-check.ts) and of the staff preview
 * (`GET /api/staff/preview`). Every mistake of a run is reported, each where it is written (a file and
 * a JSON pointer into it), never as an exception:
 * - files that are not JSON (line and column), step schemas that are no valid JSON Schema (by name);
 * - every flow file against the meta-schema (flows/flow.schema.json), every variant patch against the
 *   patch schema derived from the step's (server/flows/patch-schema.ts), every patched step against the step's;
 * - unique step ids, variant ids and paths under the flow's base path; every step schema exists in schemas/;
 *   every ui:widget / ui:field name is in widgets/registry.ts (its names: widgets/names.json); every step
 *   `rule` names a rule of server/registration/step-rules.ts; every locale key exists in locales/ro and
 *   locales/en; every endpoint is a route of the server; every partner and activity a condition names is
 *   in the seed data; every CAEN code named (locked codes, activities' defaults) is a CAEN Rev.3 class;
 * - the wiring of each step: examples valid against its schema, uiSchema keys and submit.payload
 *   pointers that name a property of it, `store` naming fields the payload sends;
 * - every step is reachable and every variant applies to some request; and, in the command only (the
 *   server has no tests folder), every widget of a ready step has a flow walker driver.
 * Steps are checked as written (base steps alone, each patch on its base step) and as every request
 * sees them (each partner × activity × paid); a mistake in a patch is reported in the patch
 * (`#/variants/1/steps/requesting-company-step-6/uiSchema`), one in a base step that only shows with
 * some variants says "(with …)". Pure over its input: the caller reads the files and knows the routes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { evaluate, formDataMeeting, mergePatch, resolveFlow, type Condition, type Flow, type FlowContext } from '../../src/core/flow';
import { isKnownRouteName } from '../../src/core/routes';
import { STEP_RULES } from '../registration/step-rules';
import { readJsonFile, readJsonFolder } from './json-file';
import { stepPatchSchema } from './patch-schema';
import { escapeSegment, isPlainObject, pointerSegments, toPointer, type Problem } from './problems';
import { describeErrors } from './schema-errors';
import { SchemaWalk } from './schema-walk';
import { writtenAt, type Layer } from './written-at';
import { FLOWS_DIR, SCHEMAS_DIR } from './registry';

export type { Problem } from './problems';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CheckInput {
  files: { file: string; flow: unknown }[];
  /** Files that could not be read as JSON (flow files, step schemas, locales, seed data): reported first. */
  unreadable: Problem[];
  metaSchema: object;
  /** The step schemas by file name (a schema's `$id` must be its file name). */
  schemas: Map<string, object>;
  /** How a step schema file is named in problems: this + its file name (`schemas/`). */
  schemasLabel: string;
  locales: Record<string, Record<string, unknown>>;
  widgetNames: Set<string>;
  fieldNames: Set<string>;
  /** Names of the server's step rules (server/registration/step-rules.ts). */
  ruleNames: Set<string>;
  routeExists: (method: 'GET' | 'POST', url: string) => boolean;
  partners: { slug: string; unaffiliated: boolean }[];
  activities: string[];
  /** The classes of CAEN Rev.3 (server/db/seed/caen-rev3.json): the only codes a flow or an activity may name. */
  caenCodes: Set<string>;
  /** Each activity's default CAEN code (server/db/seed/activities.json `caen`), in file order. */
  activityCaen: { code: string; caen: string | null }[];
  /** The flow walker's drivers (tests/e2e/drivers.ts), given by the command only: every widget of a ready step needs one. */
  driverNames?: Set<string>;
}

/** A problem of a step, relative to the step: where (pointer segments inside it), how bad, what. */
interface StepProblem {
  at: (string | number)[];
  level: Problem['level'];
  message: string;
}

type Json = Record<string, unknown>;
type Report = (level: Problem['level'], pointer: string, message: string) => void;

const LOCALE_KEY = /^[a-zA-Z]+:[a-zA-Z0-9_.-]+$/;
const LANGUAGES = ['ro', 'en'];
const META_ID = 'flow.schema.json';

function hasLocaleKey(locales: CheckInput['locales'], lng: string, key: string): boolean {
  const [ns, rest] = key.split(':');
  let node: unknown = locales[`${lng}/${ns}`];
  for (const part of rest.split('.')) {
    if (!isPlainObject(node)) return false;
    node = node[part];
  }
  return typeof node === 'string';
}

/** Every string under uiSchema that names a locale key, with its place. */
function uiLocaleKeys(value: unknown, at: (string | number)[], out: [(string | number)[], string][] = []): [(string | number)[], string][] {
  if (typeof value === 'string' && LOCALE_KEY.test(value)) out.push([at, value]);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) uiLocaleKeys(v, [...at, k], out);
  return out;
}

/** Every CAEN code a uiSchema names (`lockedCodes` of the overview), with its place. */
function uiCaenCodes(value: unknown, at: (string | number)[], out: [(string | number)[], unknown][] = []): [(string | number)[], unknown][] {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'lockedCodes' && Array.isArray(v)) v.forEach((code, i) => out.push([[...at, k, i], code]));
      else uiCaenCodes(v, [...at, k], out);
    }
  }
  return out;
}

function uiComponents(value: unknown, at: (string | number)[], out: [(string | number)[], 'ui:widget' | 'ui:field', string][] = []) {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'ui:widget' || k === 'ui:field') && typeof v === 'string') out.push([[...at, k], k, v]);
      else uiComponents(v, [...at, k], out);
    }
  }
  return out;
}

/** The component the flow walker fills a step with (tests/e2e/walk.ts `componentOf`), and where the uiSchema names it. */
function walkerComponent(uiSchema: unknown): [(string | number)[], string] {
  const ui = isPlainObject(uiSchema) ? uiSchema : {};
  if (typeof ui['ui:field'] === 'string') return [['uiSchema', 'ui:field'], ui['ui:field']];
  for (const [key, value] of Object.entries(ui)) {
    if (isPlainObject(value) && typeof value['ui:widget'] === 'string') return [['uiSchema', key, 'ui:widget'], value['ui:widget']];
  }
  // No custom widget: rjsf's own inputs (the fiscal code).
  return [['uiSchema'], '$form'];
}

/** Every partner and activity a condition names, with its place. */
function conditionSlugs(condition: unknown, at: (string | number)[], out: [(string | number)[], 'partner' | 'activity', string][] = []) {
  if (!isPlainObject(condition)) return out;
  for (const key of ['all', 'any'] as const) {
    if (Array.isArray(condition[key])) (condition[key] as unknown[]).forEach((c, i) => conditionSlugs(c, [...at, key, i], out));
  }
  if ('not' in condition) conditionSlugs(condition.not, [...at, 'not'], out);
  for (const kind of ['partner', 'activity'] as const) {
    const named = condition[kind];
    if (typeof named === 'string') out.push([[...at, kind], kind, named]);
    else if (Array.isArray(named)) named.forEach((s, i) => typeof s === 'string' && out.push([[...at, kind, i], kind, s]));
  }
  return out;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function checkFlows(input: CheckInput): Problem[] {
  const problems: Problem[] = [...input.unreadable];
  input.activityCaen.forEach(({ code, caen }, i) => {
    if (caen !== null && !input.caenCodes.has(caen)) {
      problems.push({ level: 'error', file: 'server/db/seed/activities.json', path: `#/activities/${i}/caen`, message: `activity ${code}: ${caen} is not a CAEN Rev.3 class` });
    }
  });

  // verbose: the errors carry their schema, so a oneOf is reported through the branch that was meant.
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
  const metaSchema = { ...(input.metaSchema as Json), $id: META_ID };
  let checkMeta: ValidateFunction, checkStep: ValidateFunction, isCondition: ValidateFunction, checkPatch: ValidateFunction;
  try {
    ajv.addSchema(metaSchema);
    checkMeta = ajv.compile({ $ref: `${META_ID}#` });
    checkStep = ajv.compile({ $ref: `${META_ID}#/definitions/step` });
    isCondition = ajv.compile({ $ref: `${META_ID}#/definitions/condition` });
    checkPatch = ajv.compile(stepPatchSchema(metaSchema));
  } catch (error) {
    // Without the meta-schema (flows/flow.schema.json, not JSON or edited away) no flow file can be checked.
    problems.push({ level: 'error', file: 'flows/flow.schema.json', path: '#', message: `the meta-schema cannot be used: ${(error as Error).message}` });
    return problems;
  }

  // The step schemas: each by its file name, a broken one reported once (the steps naming it say nothing more).
  const validators = new Map<string, ValidateFunction>();
  const walks = new Map<string, SchemaWalk>();
  const broken = new Set(input.unreadable.filter((p) => p.file.startsWith(input.schemasLabel)).map((p) => p.file.slice(input.schemasLabel.length)));
  for (const [name, schema] of input.schemas) {
    const file = `${input.schemasLabel}${name}`;
    const schemaProblem = (pointer: string, message: string) => {
      broken.add(name);
      problems.push({ level: 'error', file, path: `#${pointer}`, message });
    };
    if (!isPlainObject(schema)) {
      schemaProblem('', 'must be a JSON Schema (an object)');
      continue;
    }
    if (schema.$id !== name) schemaProblem('/$id', `$id must be "${name}" (the file's name), not ${JSON.stringify(schema.$id)}`);
    if (!ajv.validateSchema(schema)) {
      for (const e of describeErrors(ajv.errors ?? [])) schemaProblem(e.pointer, `not a valid JSON Schema: ${e.message}`);
      continue;
    }
    try {
      validators.set(name, new Ajv({ allErrors: true, strict: false, verbose: true }).compile(schema));
      walks.set(name, new SchemaWalk(schema));
    } catch (error) {
      schemaProblem('', `not a valid JSON Schema: ${(error as Error).message}`);
    }
  }

  const types = new Map<number, string>();
  for (const { file, flow } of input.files) {
    const reported = new Set<string>();
    const found: Problem[] = [];
    // The same problem seen through several variants or requests is reported once (with the first variants that show it).
    const report: Report = (level, pointer, message) => {
      const key = `${pointer} ${message.replace(/ \(with [^)]*\)$/, '')}`;
      if (reported.has(key)) return;
      reported.add(key);
      found.push({ level, file, path: `#${pointer}`, message });
    };
    try {
      checkFile(file, flow, report);
    } catch (error) {
      // A mistake the checks above did not foresee: still a line with the file, never a stack trace.
      report('error', '', `the check stopped here: ${(error as Error).message}`);
    }
    // In the order of the file's pointers (steps/2 before steps/10), as one reads it.
    problems.push(...found.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true })));
  }
  return problems;

  function checkFile(file: string, raw: unknown, report: Report) {
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
      if (checkSlugs(variant.when, [], `/variants/${v}/when`, 'error', report)) unknownSlugs.add(v);
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
      if (isPlainObject(step)) emit(stepProblems(step, true), { pointer: `/steps/${i}`, value: step }, [], '');
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
        emit(stepProblems(merged, false), base, layers, tag);
      }
    });

    // 3. Every request a flow can meet: each partner with each activity, paid or not; variants on form
    // data (the overview after sending) with those fields filled in. Only what can be resolved takes part:
    // a variant or a `when` the meta-schema refuses is left out (its mistake is reported above).
    const usable = sanitize(steps, variants);
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
        emit(stepProblems(step as unknown as Json, true), base, layers, tag);
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
  function checkSlugs(condition: unknown, at: (string | number)[], pointer: string, level: Problem['level'], report: Report): boolean {
    const unknown = slugProblems(condition, at, level);
    for (const p of unknown) report(p.level, `${pointer}${toPointer(p.at)}`, p.message);
    return unknown.length > 0;
  }

  function slugProblems(condition: unknown, at: (string | number)[], level: Problem['level']): StepProblem[] {
    const partners = new Set(input.partners.map((p) => p.slug));
    const activities = new Set(input.activities);
    return conditionSlugs(condition, at)
      .filter(([, kind, slug]) => !(kind === 'partner' ? partners : activities).has(slug))
      .map(([where, kind, slug]) => ({
        at: where,
        level,
        message:
          kind === 'partner'
            ? `partner "${slug}" is not a partner of server/db/seed/partners.json (${[...partners].join(', ')})`
            : `activity "${slug}" is not an activity of server/db/seed/activities.json`,
      }));
  }

  /**
   * The checks of one step (as written, patched, or as a request sees it), relative to it. `wiring`:
   * also how its parts fit its schema (examples, uiSchema keys, payload pointers, store, walker drivers):
   * not for a patch on its base step alone, which another variant may complete.
   */
  function stepProblems(step: Json, wiring: boolean): StepProblem[] {
    const out: StepProblem[] = [];
    const add = (at: (string | number)[], level: Problem['level'], message: string) => out.push({ at, level, message });
    const pending = step.status === 'pending';
    const soft: Problem['level'] = pending ? 'warning' : 'error';
    const schemaName = text(step.schema);
    const validate = schemaName !== null ? validators.get(schemaName) : undefined;
    if (schemaName !== null && !input.schemas.has(schemaName) && !broken.has(schemaName)) add(['schema'], 'error', `schema ${schemaName} is not in schemas/`);

    const keys: [(string | number)[], string][] = [];
    for (const role of ['title', 'name'] as const) if (typeof step[role] === 'string') keys.push([[role], step[role]]);
    // A copy role ending in "Errors" names a group of texts by code (the payment redirect's error codes): it needs its `.unknown`.
    if (isPlainObject(step.copy)) {
      for (const [role, key] of Object.entries(step.copy)) if (typeof key === 'string') keys.push([['copy', role], role.endsWith('Errors') ? `${key}.unknown` : key]);
    }
    keys.push(...uiLocaleKeys(step.uiSchema ?? {}, ['uiSchema']));
    for (const [at, key] of keys) {
      if (!LOCALE_KEY.test(key)) continue; // the meta-schema says it
      for (const lng of LANGUAGES) if (!hasLocaleKey(input.locales, lng, key)) add(at, 'error', `locale key ${key} is missing in locales/${lng}`);
    }
    for (const [at, kind, name] of uiComponents(step.uiSchema ?? {}, ['uiSchema'])) {
      const known = kind === 'ui:widget' ? input.widgetNames : input.fieldNames;
      if (!known.has(name)) add(at, soft, `${kind} "${name}" is not in widgets/registry.ts${pending ? ' (step pending)' : ''}`);
    }
    for (const [at, code] of uiCaenCodes(step.uiSchema ?? {}, ['uiSchema'])) {
      if (typeof code !== 'string' || !input.caenCodes.has(code)) add(at, 'error', `${JSON.stringify(code)} is not a CAEN Rev.3 class (server/db/seed/caen-rev3.json)`);
    }
    const rule = text(step.rule);
    if (rule !== null && !input.ruleNames.has(rule)) add(['rule'], 'error', `rule "${rule}" is not in server/registration/step-rules.ts`);

    const submit = isPlainObject(step.submit) ? step.submit : {};
    const branches = Array.isArray(submit.branches) ? submit.branches.map((b) => (isPlainObject(b) ? b : {})) : [];
    const then = isPlainObject(submit.then) ? submit.then : null;
    const calls: [(string | number)[], Json][] = [[['submit'], submit], ...branches.map((b, n): [(string | number)[], Json] => [['submit', 'branches', n], b]), ...(then ? [[['submit', 'then'], then] as [(string | number)[], Json]] : [])];
    for (const [at, call] of calls) {
      const endpoint = text(call.endpoint);
      if (endpoint !== null && !input.routeExists('POST', endpoint)) add([...at, 'endpoint'], soft, `POST ${endpoint} is not a route of the server${pending ? ' (step pending)' : ''}`);
    }
    out.push(...slugProblems(step.when, ['when'], 'error'));
    branches.forEach((b, n) => out.push(...slugProblems(b.when, ['submit', 'branches', n, 'when'], 'error')));
    if (!wiring) return out;

    if (validate && schemaName !== null) {
      (Array.isArray(step.examples) ? step.examples : []).forEach((example, e) => {
        if (validate(example)) return;
        for (const err of describeErrors(validate.errors ?? [])) add(['examples', e, ...pointerSegments(err.pointer)], 'error', `example is not valid against ${schemaName}: ${err.message}`);
      });
      const walk = walks.get(schemaName)!;
      const schema = input.schemas.get(schemaName) as Json;
      const uiKeys = (ui: unknown, schemas: Json[], at: (string | number)[]) => {
        if (!isPlainObject(ui)) return;
        for (const [key, value] of Object.entries(ui)) {
          if (key.startsWith('ui:')) continue;
          const child = walk.uiChild(schemas, key);
          if (!child) add([...at, key], 'error', `uiSchema key "${key}" names no property of ${schemaName} (its widget would not show)`);
          else uiKeys(value, child, [...at, key]);
        }
      };
      uiKeys(step.uiSchema, [schema], ['uiSchema']);
      for (const [at, call] of calls) {
        if (!isPlainObject(call.payload)) continue;
        for (const [field, source] of Object.entries(call.payload)) {
          if (typeof source !== 'string' || !source.startsWith('/')) continue;
          if (!walk.at(pointerSegments(source))) add([...at, 'payload', field], 'error', `pointer "${source}" names no property of ${schemaName} (the field would be sent empty)`);
        }
      }
    }
    const sent = isPlainObject(submit.payload) ? submit.payload : {};
    if (isPlainObject(submit.store)) {
      for (const [key, field] of Object.entries(submit.store)) {
        if (typeof field === 'string' && !(field in sent)) add(['submit', 'store', key], 'error', `store keeps "${field}", which submit.payload does not send`);
      }
    }
    if (input.driverNames && !pending) {
      const [at, component] = walkerComponent(step.uiSchema);
      if (!input.driverNames.has(component)) add(at, 'error', `${component === '$form' ? 'the plain form' : `"${component}"`} has no driver in tests/e2e/drivers.ts (the flow walker cannot fill this step)`);
    }
    return out;
  }

  /** What of the steps and variants can be resolved: steps with an id, variants with a valid condition, patches that are objects or null. */
  function sanitize(steps: unknown[], variants: unknown[]) {
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
}

/** A missing required property is looked up where it would be written (a patch's `null` removes it there). */
function requiredAt(pointer: string, message: string): string[] {
  const missing = /^must have required property "(.+)"$/.exec(message);
  return [...pointerSegments(pointer), ...(missing ? [missing[1]] : [])];
}

/**
 * The flow files of a folder (flows/ or the preview's `PREVIEW_FLOWS_DIR`), as written: not checked,
 * not resolved; each named `label` + its name. A file that is not JSON is a problem (line and column).
 */
export function readFlowFiles(dir: string = FLOWS_DIR, label = ''): { files: CheckInput['files']; unreadable: Problem[] } {
  const { files, unreadable } = readJsonFolder(dir, label, (name) => name === 'flow.schema.json');
  return { files: files.map(({ name, value }) => ({ file: `${label}${name}`, flow: value })), unreadable };
}

/** Every URL a flow file calls (its api, each step's submit, branch and follow-up, variants' submits): what `routeExists` is asked about. */
export function flowEndpoints(flow: unknown): string[] {
  const urls: unknown[] = [];
  const f = isPlainObject(flow) ? flow : {};
  const calls = (submit: unknown) => {
    if (!isPlainObject(submit)) return;
    urls.push(submit.endpoint);
    if (isPlainObject(submit.then)) urls.push(submit.then.endpoint);
    if (Array.isArray(submit.branches)) for (const b of submit.branches) if (isPlainObject(b)) urls.push(b.endpoint);
  };
  if (isPlainObject(f.api)) urls.push(...Object.values(f.api));
  if (Array.isArray(f.steps)) for (const s of f.steps) if (isPlainObject(s)) calls(s.submit);
  if (Array.isArray(f.variants)) {
    for (const v of f.variants) if (isPlainObject(v) && isPlainObject(v.steps)) for (const p of Object.values(v.steps)) if (isPlainObject(p)) calls(p.submit);
  }
  return urls.filter((u): u is string => typeof u === 'string' && u.length > 0);
}

export interface InputOptions {
  /** The step schemas' folder (the preview's `PREVIEW_SCHEMAS_DIR`); default schemas/. */
  schemasDir?: string;
  /** How its files are named in problems; default `schemas/`. */
  schemasLabel?: string;
  driverNames?: Set<string>;
}

/**
 * What the check reads from disk: the meta-schema, the step schemas, the locales, the widget names,
 * the step rules, the partners, activities and CAEN classes of the seed; the flow files (readFlowFiles)
 * and `routeExists` come from the caller (the script builds the app, the server asks itself).
 */
export function checkInput(flows: { files: CheckInput['files']; unreadable: Problem[] }, routeExists: CheckInput['routeExists'], options: InputOptions = {}): CheckInput {
  const unreadable = [...flows.unreadable];
  const read = <T>(file: string, fallback: T): T => {
    const got = readJsonFile(path.join(root, file), file);
    if ('problem' in got) {
      unreadable.push(got.problem);
      return fallback;
    }
    return got.value as T;
  };
  const names = read<{ widgets?: Record<string, string>; fields?: Record<string, string> }>('widgets/names.json', {});
  const partners = read<{ partners?: { slug: string; is_unaffiliated: boolean }[] }>('server/db/seed/partners.json', {}).partners ?? [];
  const activities = read<{ activities?: { code: string; caen?: string | null }[] }>('server/db/seed/activities.json', {}).activities ?? [];
  const caen = read<{ codes?: { code: string }[] }>('server/db/seed/caen-rev3.json', {}).codes ?? [];
  const metaSchema = read<object>('flows/flow.schema.json', {});

  const schemasLabel = options.schemasLabel ?? 'schemas/';
  const schemaFiles = readJsonFolder(options.schemasDir ?? SCHEMAS_DIR, schemasLabel);
  unreadable.push(...schemaFiles.unreadable);
  const locales: CheckInput['locales'] = {};
  for (const lng of LANGUAGES) {
    const folder = readJsonFolder(path.join(root, 'locales', lng), `locales/${lng}/`);
    unreadable.push(...folder.unreadable);
    for (const { name, value } of folder.files) if (isPlainObject(value)) locales[`${lng}/${name.replace(/\.json$/, '')}`] = value;
  }
  return {
    files: flows.files,
    unreadable,
    metaSchema,
    schemas: new Map(schemaFiles.files.map(({ name, value }) => [name, value as object])),
    schemasLabel,
    locales,
    widgetNames: new Set(Object.keys(names.widgets ?? {})),
    fieldNames: new Set(Object.keys(names.fields ?? {})),
    ruleNames: new Set(Object.keys(STEP_RULES)),
    routeExists,
    partners: partners.map((p) => ({ slug: p.slug, unaffiliated: p.is_unaffiliated })),
    activities: activities.map((a) => a.code),
    caenCodes: new Set(caen.map((c) => c.code)),
    activityCaen: activities.map((a) => ({ code: a.code, caen: a.caen ?? null })),
    driverNames: options.driverNames,
  };
}
