/**
 * `npm run flows:check [-- flows/new-pfa.json ...]`: validates every flow file and every variant
 * of it. Checks: the meta-schema (flows/flow.schema.json); unique step ids and paths under the
 * flow's base path; every step schema exists in schemas/; every ui:widget / ui:field name exists in
 * widgets/registry.ts; every step `rule` names a rule of server/registration/step-rules.ts; every locale key exists in locales/ro and locales/en; every endpoint is a
 * route of the server; every example is valid against its step schema; every step is reachable
 * and every variant applies to some request. Prints problems with their JSON path; exits 1 on errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveFlow, type Condition, type Flow, type FlowContext, type FlowStep } from '../src/core/flow';
import { readSchemas, stepAjv } from '../server/flows/registry';
import { isKnownRouteName } from '../src/core/routes';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

function uiComponents(value: unknown, pointer: string, out: [string, 'ui:widget' | 'ui:field', string][] = []) {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'ui:widget' || k === 'ui:field') && typeof v === 'string') out.push([`${pointer}/${k}`, k, v]);
      else uiComponents(v, `${pointer}/${k}`, out);
    }
  }
  return out;
}

/** Form data in which every `field` condition of `conditions` holds (for checking field variants). */
function formDataMeeting(conditions: (Condition | undefined)[]): Record<string, unknown> {
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

export function checkFlows(input: CheckInput): Problem[] {
  const problems: Problem[] = [];
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

/** Everything the check reads from the repository, plus the server's route table. */
export async function repositoryInput(fileArgs: string[] = []): Promise<CheckInput> {
  const flowsDir = path.join(root, 'flows');
  const names = fileArgs.length
    ? fileArgs.map((f) => path.resolve(f))
    : fs.readdirSync(flowsDir).filter((f) => f.endsWith('.json') && f !== 'flow.schema.json').map((f) => path.join(flowsDir, f));
  const files = names.map((f) => ({ file: path.relative(root, f), flow: JSON.parse(fs.readFileSync(f, 'utf8')) as unknown }));
  const { widgets, fields } = await import('../widgets/registry');
  const { STEP_RULES } = await import('../server/registration/step-rules');
  const { buildApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const app = await buildApp({ ...loadConfig({ DATA_DIR: ':memory:', NODE_ENV: 'test', SERVE_STATIC: '0' }), databaseUrl: null });
  await app.ready();
  const routes = new Set<string>();
  for (const method of ['GET', 'POST'] as const) {
    for (const f of files) {
      const flow = f.flow as Flow;
      const urls = [
        ...Object.values(flow.api ?? {}),
        ...(flow.steps ?? []).flatMap((s) => [s.submit?.endpoint, s.submit?.then?.endpoint, ...(s.submit?.branches ?? []).map((b) => b.endpoint)]),
      ];
      for (const v of flow.variants ?? []) for (const p of Object.values(v.steps ?? {})) if (p?.submit?.endpoint) urls.push(p.submit.endpoint);
      for (const url of urls) if (url && app.hasRoute({ method, url })) routes.add(`${method} ${url}`);
    }
  }
  await app.close();
  const partners = JSON.parse(fs.readFileSync(path.join(root, 'server/db/seed/partners.json'), 'utf8')).partners as { slug: string; is_unaffiliated: boolean }[];
  const activities = JSON.parse(fs.readFileSync(path.join(root, 'server/db/seed/activities.json'), 'utf8')).activities as { code: string }[];
  return {
    files,
    metaSchema: JSON.parse(fs.readFileSync(path.join(flowsDir, 'flow.schema.json'), 'utf8')),
    schemas: readSchemas() as Map<string, object>,
    locales: readLocales(),
    widgetNames: new Set(Object.keys(widgets)),
    fieldNames: new Set(Object.keys(fields)),
    ruleNames: new Set(Object.keys(STEP_RULES)),
    routeExists: (method, url) => routes.has(`${method} ${url}`),
    partners: partners.map((p) => ({ slug: p.slug, unaffiliated: p.is_unaffiliated })),
    activities: activities.map((a) => a.code),
  };
}

async function main() {
  const input = await repositoryInput(process.argv.slice(2).filter((a) => !a.startsWith('-')));
  const problems = checkFlows(input);
  for (const p of problems) console.log(`${p.level === 'error' ? 'error  ' : 'warning'} ${p.file}${p.path}: ${p.message}`);
  const errors = problems.filter((p) => p.level === 'error').length;
  const warnings = problems.length - errors;
  console.log(`flows:check: ${input.files.length} flow file(s), ${errors} error(s), ${warnings} warning(s)`);
  process.exit(errors ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
