import type { FromSchema } from 'json-schema-to-ts';
import { VARIABLES, type Declaration } from './variables';

type Variables = typeof VARIABLES;
export type VariableName = keyof Variables;
/** The variables a declaration marks `x-production`. */
type ProductionName = { [K in VariableName]: Variables[K] extends { readonly 'x-production': true } ? K : never }[VariableName];

/** Every declaration, for the loops below (the literal types stay on VARIABLES). */
export const DECLARATIONS: Readonly<Record<string, Declaration>> = VARIABLES;

const named = (test: (declaration: Declaration) => boolean): string[] =>
  Object.entries(DECLARATIONS)
    .filter(([, declaration]) => test(declaration))
    .map(([name]) => name);

/**
 * What production needs (issue 16): every real part, each marked `x-production` where it is declared.
 * Without one of them the server refuses to start instead of silently using a development stand-in
 * (PGlite, the outbox, the simulator, the built-in checkout, a key kept in DATA_DIR).
 */
export const PRODUCTION_REQUIRED = named((d) => d['x-production'] === true) as readonly ProductionName[];

/**
 * Every variable the server reads (docs/configuration.md), as a JSON Schema checked by env-schema at
 * start. `NODE_ENV=production` makes every real part required.
 */
export const ENV_SCHEMA = {
  type: 'object',
  properties: VARIABLES,
  additionalProperties: false,
  dependencies: {
    VERIFF_API_KEY: ['VERIFF_SHARED_SECRET'],
    STRIPE_SECRET_KEY: ['STRIPE_WEBHOOK_SECRET'],
    S3_BUCKET: ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
  },
  if: { properties: { NODE_ENV: { const: 'production' } }, required: ['NODE_ENV'] },
  then: { required: PRODUCTION_REQUIRED },
} as const;

/** The settings as env-schema hands them back: numbers as numbers, defaults filled in, the rest optional. */
export type Settings = FromSchema<typeof ENV_SCHEMA>;

/** ENV_SCHEMA without this project's `x-` keywords, which ajv's strict mode would refuse: a fresh copy per call (env-schema edits it). */
export function checkedSchema(): object {
  const properties = Object.fromEntries(
    Object.entries(DECLARATIONS).map(([name, declaration]) => [name, Object.fromEntries(Object.entries(declaration).filter(([keyword]) => !keyword.startsWith('x-')))]),
  );
  return structuredClone({ ...ENV_SCHEMA, properties });
}

/** Variables whose value is a secret: never repeated in an error message. */
export const SECRETS: ReadonlySet<string> = new Set(named((d) => d['x-secret'] === true));
/** Variables holding one URL (checked to parse, beyond their scheme pattern). */
export const URL_VARIABLES: readonly string[] = named((d) => d['x-url'] === true);
/** Integer variables: an empty value is refused, not read as unset. */
export const NUMERIC: ReadonlySet<string> = new Set(named((d) => d.type === 'integer'));
