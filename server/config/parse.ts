import type { ErrorObject } from 'ajv';
import envSchema from 'env-schema';
import { checkedSchema, DECLARATIONS, NUMERIC, SECRETS, URL_VARIABLES, type Settings } from './schema';
import { URL_HINT } from './variables';

/** Every missing or malformed variable, in one message (Romanian / English), thrown by loadConfig. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Configurația nu este validă; serverul nu pornește. / The configuration is not valid; the server does not start.\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

function shown(name: string, value: unknown): string {
  return SECRETS.has(name) ? '' : ` („${String(value)}”)`;
}

function describe(error: ErrorObject, env: Record<string, unknown>): string {
  if (error.keyword === 'required') {
    const name = (error.params as { missingProperty: string }).missingProperty;
    return `${name}: lipsește, obligatorie cu NODE_ENV=production / missing, required with NODE_ENV=production`;
  }
  if (error.keyword === 'dependencies') {
    const { property, missingProperty } = error.params as { property: string; missingProperty: string };
    return `${missingProperty}: lipsește, obligatorie cu ${property} / missing, required with ${property}`;
  }
  const name = error.instancePath.replace(/^\//, '');
  const value = shown(name, env[name]);
  switch (error.keyword) {
    case 'type':
      return `${name}${value}: nu este un număr întreg / is not a whole number`;
    case 'minimum':
    case 'maximum':
      return `${name}${value}: trebuie să fie ${error.message?.replace('must be', '').trim()} / must be ${error.message?.replace('must be', '').trim()}`;
    case 'minLength': {
      const limit = (error.params as { limit: number }).limit;
      return `${name}: trebuie să aibă cel puțin ${limit} caractere / must have at least ${limit} characters`;
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: string[] }).allowedValues.map((v) => `"${v}"`).join(', ');
      return `${name}${value}: trebuie să fie unul dintre ${allowed} / must be one of ${allowed}`;
    }
    case 'pattern':
      return `${name}${value}: ${DECLARATIONS[name]?.['x-hint'] ?? 'nu are forma cerută / is not in the expected form'}`;
    default:
      return `${name}: ${error.message ?? 'invalid'}`;
  }
}

/** A comma list, trimmed, without empty items. */
export function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The values of the variables the schema knows: texts trimmed, empty texts unset (numbers keep '' so it is refused). */
function readable(env: NodeJS.ProcessEnv): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [name, declaration] of Object.entries(DECLARATIONS)) {
    const raw = env[name];
    if (raw === undefined) continue;
    const value = declaration['x-lowercase'] ? raw.trim().toLowerCase() : NUMERIC.has(name) ? raw : raw.trim();
    if (value === '' && !NUMERIC.has(name)) continue;
    data[name] = value;
  }
  return data;
}

/** The environment checked against ENV_SCHEMA: typed values and defaults, or a ConfigError listing every problem. */
export function parseEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const data = readable(env);
  const problems: string[] = [];
  let parsed = {} as Settings;
  try {
    parsed = envSchema<Settings>({ schema: checkedSchema(), data, env: false });
  } catch (error) {
    const errors = (error as { errors?: ErrorObject[] }).errors;
    if (!errors) throw error;
    // A production `then` failing adds a summary error (keyword "if") after the missing ones.
    for (const e of errors) if (e.keyword !== 'if') problems.push(describe(e, data));
  }
  for (const name of URL_VARIABLES) {
    const value = data[name];
    if (value !== undefined && !URL.canParse(value) && !problems.some((p) => p.startsWith(`${name}`))) {
      problems.push(`${name}${shown(name, value)}: ${DECLARATIONS[name]['x-hint'] ?? URL_HINT}`);
    }
  }
  for (const origin of list(data.AUTH_CALLBACK_ORIGINS)) {
    if (!/^https?:\/\//.test(origin) || !URL.canParse(origin)) problems.push(`AUTH_CALLBACK_ORIGINS („${origin}”): ${URL_HINT}`);
  }
  // One line per variable (a secret missing in production is also missing "with" its partner key).
  const byName = new Map<string, string>();
  for (const problem of problems) {
    const name = /^[A-Z0-9_]+/.exec(problem)?.[0] ?? problem;
    if (!byName.has(name)) byName.set(name, problem);
  }
  if (byName.size > 0) throw new ConfigError([...byName.values()]);
  return parsed;
}
