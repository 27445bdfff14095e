import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES } from '../messages';
import { STEP_RULES } from '../registration/step-rules';
import { readJsonFile, readJsonFolder } from './json-file';
import { isPlainObject, type Problem } from './problems';
import { FLOWS_DIR, SCHEMAS_DIR } from './registry';

/**
 * What flows:check reads (server/flows/check.ts): the flow files as written, the step schemas, the
 * locales, the widget names, the step rules, the seed's partners, activities and CAEN classes; and
 * every URL a flow file calls, which the caller asks its route table about.
 */

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
