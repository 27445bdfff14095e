import { LANGUAGES } from '../messages';
import type { CheckInput } from './check-input';
import type { Schemas } from './check-schemas';
import { isPlainObject, pointerSegments, type Problem } from './problems';
import { describeErrors } from './schema-errors';

/**
 * flows:check's checks of one step (server/flows/check.ts), as written, patched, or as a request sees
 * it: its texts (locale keys in every language), widgets and fields (widgets/registry.ts), CAEN codes,
 * rule (server/registration/step-rules.ts), the routes it calls, the partners and activities its
 * conditions name; with `wiring`, how its parts fit its schema.
 */

/** A problem of a step, relative to the step: where (pointer segments inside it), how bad, what. */
export interface StepProblem {
  at: (string | number)[];
  level: Problem['level'];
  message: string;
}

export type Json = Record<string, unknown>;

/** A locale key as flow files write it: `namespace:key.path`. */
export const LOCALE_KEY = /^[a-zA-Z]+:[a-zA-Z0-9_.-]+$/;

export function hasLocaleKey(locales: CheckInput['locales'], lng: string, key: string): boolean {
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

export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The partners and activities a condition names that the seed data does not have. */
export function slugProblems(input: CheckInput, condition: unknown, at: (string | number)[], level: Problem['level']): StepProblem[] {
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
export function stepProblems(input: CheckInput, { validators, walks, broken }: Schemas, step: Json, wiring: boolean): StepProblem[] {
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
  out.push(...slugProblems(input, step.when, ['when'], 'error'));
  branches.forEach((b, n) => out.push(...slugProblems(input, b.when, ['submit', 'branches', n, 'when'], 'error')));
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
