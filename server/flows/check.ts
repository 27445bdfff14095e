/**
 * The checks of `npm run flows:check` (scripts/flows-check.ts) and of the staff preview
 * (`GET /api/staff/preview`): every flow file and every variant of it against the meta-schema
 * (flows/flow.schema.json); unique step ids and paths under the flow's base path; every step schema
 * exists in schemas/; every ui:widget / ui:field name is in widgets/registry.ts (its names:
 * widgets/names.json); every step `rule` names a rule of server/registration/step-rules.ts; every
 * locale key exists in locales/ro and locales/en; every endpoint is a route of the server; every
 * example is valid against its step schema; every step is reachable and every variant applies to
 * some request; every CAEN code named (locked codes, activities' defaults) is a CAEN Rev.3 class. Pure over its input: the caller reads the files and knows the routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formDataMeeting, resolveFlow, type Flow, type FlowContext, type FlowStep } from '../../src/core/flow';
import { isKnownRouteName } from '../../src/core/routes';
import { STEP_RULES } from '../registration/step-rules';
import { readSchemas, stepAjv, FLOWS_DIR, SCHEMAS_DIR } from './registry';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Problem {
  level: 'error' | 'warning';
  file: string;
  /** JSON pointer into the file. */
  path: string;
  message: string;
}

export interface CheckInput {
  files: { file: string; flow: unknown }[];
  metaSchema: object;
  schemas: Map<string, object>;
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
}

const LOCALE_KEY = /^[a-zA-Z]+:[a-zA-Z0-9_.-]+$/;
const LANGUAGES = ['ro', 'en'];

function hasLocaleKey(locales: CheckInput['locales'], lng: string, key: string): boolean {
  const [ns, rest] = key.split(':');
  let node: unknown = locales[`${lng}/${ns}`];
  for (const part of rest.split('.')) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

/** Every string under uiSchema that names a locale key, with its JSON pointer. */
function uiLocaleKeys(value: unknown, pointer: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string' && LOCALE_KEY.test(value)) out.push([pointer, value]);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) uiLocaleKeys(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  }
  return out;
}

/** Every CAEN code a uiSchema names (`lockedCodes` of the overview), with its JSON pointer. */
function uiCaenCodes(value: unknown, pointer: string, out: [string, unknown][] = []): [string, unknown][] {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'lockedCodes' && Array.isArray(v)) v.forEach((code, i) => out.push([`${pointer}/${k}/${i}`, code]));
      else uiCaenCodes(v, `${pointer}/${k}`, out);
    }
  }
  return out;
}

function uiComponents(value: unknown, pointer: string, out: [string, 'ui:widget' | 'ui:field', string][] = []) {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'ui:widget' || k === 'ui:field') && typeof v === 'string') out.push([`${pointer}/${k}`, k, v]);
      else uiComponents(v, `${pointer}/${k}`, out);
    }
  }
  return out;
}

export function checkFlows(input: CheckInput): Problem[] {
  const problems: Problem[] = [];
  input.activityCaen.forEach(({ code, caen }, i) => {
    if (caen !== null && !input.caenCodes.has(caen)) {
      problems.push({ level: 'error', file: 'server/db/seed/activities.json', path: `#/activities/${i}/caen`, message: `activity ${code}: ${caen} is not a CAEN Rev.3 class` });
    }
  });
  const ajv = stepAjv();
  const checkMeta = ajv.compile(input.metaSchema);
  const validators = new Map([...input.schemas].map(([id, s]) => [id, ajv.compile(s)]));
  const types = new Map<number, string>();

  for (const { file, flow: raw } of input.files) {
    const reported = new Set<string>();
    // The same problem seen through several variants is reported once (with the first variants that show it).
    const report = (level: Problem['level'], pointer: string, message: string) => {
      const key = `${pointer} ${message.replace(/ \(with [^)]*\)$/, '')}`;
      if (reported.has(key)) return;
      reported.add(key);
      problems.push({ level, file, path: `#${pointer}`, message });
    };
    if (!checkMeta(raw)) {
      for (const e of checkMeta.errors ?? []) report('error', e.instancePath, `${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      continue;
    }
    const flow = raw as Flow;
    if (types.has(flow.registrationType)) report('error', '/registrationType', `registration type ${flow.registrationType} is already used by ${types.get(flow.registrationType)}`);
    types.set(flow.registrationType, file);
    for (const [name, endpoint] of Object.entries(flow.api)) {
      const method = name === 'open' ? 'GET' : 'POST';
      if (!input.routeExists(method, endpoint)) report('error', `/api/${name}`, `${method} ${endpoint} is not a route of the server`);
    }

    const baseIndex = new Map<string, number>();
    const seenPaths = new Set<string>();
    flow.steps.forEach((step, i) => {
      if (baseIndex.has(step.id)) report('error', `/steps/${i}/id`, `step id ${step.id} is used twice`);
      else baseIndex.set(step.id, i);
      if (seenPaths.has(step.path)) report('error', `/steps/${i}/path`, `path ${step.path} is used twice`);
      seenPaths.add(step.path);
      if (!step.path.startsWith(`${flow.basePath}/`)) report('error', `/steps/${i}/path`, `path ${step.path} is not under ${flow.basePath}`);
    });
    (flow.variants ?? []).forEach((variant, v) => {
      for (const id of Object.keys(variant.steps)) {
        if (!baseIndex.has(id)) report('error', `/variants/${v}/steps/${id}`, `variant ${variant.id} patches unknown step ${id}`);
      }
    });
    if (flow.paidRoute && !isKnownRouteName(flow.paidRoute)) report('error', '/paidRoute', `paidRoute ${flow.paidRoute} is not a named route (src/core/routes.ts)`);
    for (const [key, pointer] of [[flow.title, '/title']]) {
      for (const lng of LANGUAGES) if (!hasLocaleKey(input.locales, lng, key)) report('error', pointer, `locale key ${key} is missing in locales/${lng}`);
    }

    // Every request a flow can meet: each partner with each activity, paid or not.
    // Variants on form data (the overview after sending) are checked with those fields filled in.
    const filled = formDataMeeting((flow.variants ?? []).map((v) => v.when));
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
    const applied = new Set<string>();
    const seen = new Set<string>();
    for (const context of contexts) {
      const resolved = resolveFlow(flow, context);
      resolved.variants.forEach((id) => applied.add(id));
      for (const step of resolved.steps) {
        reached.add(step.id);
        const fingerprint = JSON.stringify(step);
        if (seen.has(fingerprint)) continue;
        seen.add(fingerprint);
        const where = resolved.variants.length ? ` (with ${resolved.variants.join(', ')})` : '';
        checkStep(step, `/steps/${baseIndex.get(step.id)}`, where, report);
      }
    }
    flow.steps.forEach((step, i) => {
      if (!reached.has(step.id)) report('error', `/steps/${i}`, `step ${step.id} is reached by no partner or activity`);
    });
    (flow.variants ?? []).forEach((variant, v) => {
      if (!applied.has(variant.id)) report('warning', `/variants/${v}`, `variant ${variant.id} applies to no known partner or activity`);
    });
  }
  return problems;

  function checkStep(step: FlowStep, pointer: string, where: string, report: (l: Problem['level'], p: string, m: string) => void) {
    const pending = step.status === 'pending';
    const soft: Problem['level'] = pending ? 'warning' : 'error';
    const validate = validators.get(step.schema);
    if (!validate) report('error', `${pointer}/schema`, `schema ${step.schema} is not in schemas/${where}`);
    const keys: [string, string][] = [[`${pointer}/title`, step.title]];
    // A copy role ending in "Errors" names a group of texts by code (the payment redirect's error codes): it needs its `.unknown`.
    for (const [role, key] of Object.entries(step.copy ?? {})) keys.push([`${pointer}/copy/${role}`, role.endsWith('Errors') ? `${key}.unknown` : key]);
    keys.push(...uiLocaleKeys(step.uiSchema ?? {}, `${pointer}/uiSchema`));
    for (const [p, key] of keys) {
      for (const lng of LANGUAGES) if (!hasLocaleKey(input.locales, lng, key)) report('error', p, `locale key ${key} is missing in locales/${lng}${where}`);
    }
    for (const [p, kind, name] of uiComponents(step.uiSchema ?? {}, `${pointer}/uiSchema`)) {
      const known = kind === 'ui:widget' ? input.widgetNames : input.fieldNames;
      if (!known.has(name)) report(soft, p, `${kind} "${name}" is not in widgets/registry.ts${pending ? ' (step pending)' : ''}${where}`);
    }
    for (const [p, code] of uiCaenCodes(step.uiSchema ?? {}, `${pointer}/uiSchema`)) {
      if (typeof code !== 'string' || !input.caenCodes.has(code)) report('error', p, `${JSON.stringify(code)} is not a CAEN Rev.3 class (server/db/seed/caen-rev3.json)${where}`);
    }
    if (step.rule !== undefined && !input.ruleNames.has(step.rule)) {
      report('error', `${pointer}/rule`, `rule "${step.rule}" is not in server/registration/step-rules.ts${where}`);
    }
    const endpoints = [step.submit.endpoint, ...(step.submit.branches ?? []).map((b) => b.endpoint), ...(step.submit.then ? [step.submit.then.endpoint] : [])];
    for (const endpoint of endpoints) {
      if (!input.routeExists('POST', endpoint)) report(soft, `${pointer}/submit`, `POST ${endpoint} is not a route of the server${pending ? ' (step pending)' : ''}${where}`);
    }
    (step.examples ?? []).forEach((example, e) => {
      if (validate && !validate(example)) {
        for (const err of validate.errors ?? []) report('error', `${pointer}/examples/${e}${err.instancePath}`, `example is not valid against ${step.schema}: ${err.message}${where}`);
      }
    });
  }
}

function readLocales(): CheckInput['locales'] {
  const locales: CheckInput['locales'] = {};
  for (const lng of LANGUAGES) {
    const dir = path.join(root, 'locales', lng);
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      locales[`${lng}/${f.replace(/\.json$/, '')}`] = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    }
  }
  return locales;
}

/** The flow files of a folder (flows/ or the preview's `PREVIEW_FLOWS_DIR`), as written: not checked, not resolved. */
export function readFlowFiles(dir: string = FLOWS_DIR): { file: string; flow: unknown }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'flow.schema.json')
    .sort()
    .map((file) => ({ file, flow: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown }));
}

/** Every URL a flow file calls (its api, each step's submit, branch and follow-up, variants' submits): what `routeExists` is asked about. */
export function flowEndpoints(flow: unknown): string[] {
  const f = flow as Partial<Flow>;
  const urls = [
    ...Object.values(f.api ?? {}),
    ...(f.steps ?? []).flatMap((s) => [s.submit?.endpoint, s.submit?.then?.endpoint, ...(s.submit?.branches ?? []).map((b) => b.endpoint)]),
  ];
  for (const v of f.variants ?? []) for (const p of Object.values(v.steps ?? {})) if (p?.submit?.endpoint) urls.push(p.submit.endpoint);
  return urls.filter((u): u is string => typeof u === 'string' && u.length > 0);
}

/**
 * What the check reads from disk: the given flow files, the meta-schema, schemas/, the locales, the
 * widget names, the step rules, the partners and activities of the seed; `routeExists` comes from
 * the caller (the script builds the app, the server asks itself).
 */
export function checkInput(files: CheckInput['files'], routeExists: CheckInput['routeExists'], schemasDir: string = SCHEMAS_DIR): CheckInput {
  const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;
  const names = read<{ widgets: Record<string, string>; fields: Record<string, string> }>('widgets/names.json');
  const partners = read<{ partners: { slug: string; is_unaffiliated: boolean }[] }>('server/db/seed/partners.json').partners;
  const activities = read<{ activities: { code: string; caen?: string | null }[] }>('server/db/seed/activities.json').activities;
  const caen = read<{ codes: { code: string }[] }>('server/db/seed/caen-rev3.json').codes;
  return {
    files,
    metaSchema: JSON.parse(fs.readFileSync(path.join(FLOWS_DIR, 'flow.schema.json'), 'utf8')) as object,
    schemas: readSchemas(schemasDir) as Map<string, object>,
    locales: readLocales(),
    widgetNames: new Set(Object.keys(names.widgets)),
    fieldNames: new Set(Object.keys(names.fields)),
    ruleNames: new Set(Object.keys(STEP_RULES)),
    routeExists,
    partners: partners.map((p) => ({ slug: p.slug, unaffiliated: p.is_unaffiliated })),
    activities: activities.map((a) => a.code),
    caenCodes: new Set(caen.map((c) => c.code)),
    activityCaen: activities.map((a) => ({ code: a.code, caen: a.caen ?? null })),
  };
}
