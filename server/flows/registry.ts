import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';
import type { Flow } from '../../src/core/flow';
import type { RegistrationTypeValue } from '../../src/core/registration';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FLOWS_DIR = path.join(root, 'flows');
export const SCHEMAS_DIR = path.join(root, 'schemas');

export interface StepSchema {
  $id: string;
  [key: string]: unknown;
}

/** The flow files and step schemas the server runs on, read once at start and checked against the meta-schema. */
export interface FlowRegistry {
  flows: Flow[];
  byType: Record<RegistrationTypeValue, Flow>;
  schemas: Map<string, StepSchema>;
  /** Validates form data against a step schema ($id). */
  validate(schemaId: string, data: unknown): ErrorObject[] | null;
  /**
   * Fastify's validator compiler for step routes, whose bodies reference these schemas by `$id`:
   * without coercion (JSON: null is not 0, "1" is not 1) or with it (multipart text fields).
   */
  validatorCompiler(options: { coerce: boolean }): FastifySchemaCompiler<unknown>;
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

export function readSchemas(dir = SCHEMAS_DIR): Map<string, StepSchema> {
  const schemas = new Map<string, StepSchema>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const schema = readJson<StepSchema>(path.join(dir, file));
    if (schema.$id !== file) throw new Error(`schemas/${file}: $id must be "${file}"`);
    schemas.set(schema.$id, schema);
  }
  return schemas;
}

export function readFlows(dir = FLOWS_DIR): { file: string; flow: Flow }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'flow.schema.json')
    .sort()
    .map((file) => ({ file, flow: readJson<Flow>(path.join(dir, file)) }));
}

/** An Ajv for step schemas: every error at once, formats off (step schemas use patterns). */
export function stepAjv(): Ajv {
  return new Ajv({ allErrors: true, strict: false });
}

/** The registry of the flow files (`given`: instead of flows/*.json, checked against the meta-schema alike). */
export function loadFlowRegistry(given?: Flow[]): FlowRegistry {
  const ajv = stepAjv();
  const metaSchema = readJson<object>(path.join(FLOWS_DIR, 'flow.schema.json'));
  const checkFlow = ajv.compile(metaSchema);
  const schemas = readSchemas();
  const validators = new Map<string, ValidateFunction>();
  for (const [id, schema] of schemas) validators.set(id, ajv.compile(schema));
  // Multipart bodies: text fields take the types the schema declares ("true" → true, "2" → 2, "" → null).
  const coercing = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
  for (const schema of schemas.values()) coercing.addSchema(schema);

  const files = given ? given.map((flow) => ({ file: `${flow.id}.json`, flow })) : readFlows();
  const flows = files.map(({ file, flow }) => {
    if (!checkFlow(flow)) {
      const first = checkFlow.errors?.[0];
      throw new Error(`flows/${file}${first?.instancePath ?? ''}: ${first?.message ?? 'invalid'} (run npm run flows:check)`);
    }
    return flow;
  });
  const byType = Object.fromEntries(flows.map((f) => [f.registrationType, f])) as Record<RegistrationTypeValue, Flow>;
  if (!byType[1] || !byType[2]) throw new Error('flows/: one flow file per registration type (1 and 2) is needed');

  return {
    flows,
    byType,
    schemas,
    validate(schemaId, data) {
      const validator = validators.get(schemaId);
      if (!validator) throw new Error(`unknown step schema ${schemaId}`);
      return validator(data) ? null : (validator.errors ?? []);
    },
    validatorCompiler({ coerce }) {
      if (!coerce) return ({ schema }) => ajv.compile(schema as object);
      return ({ schema }) => {
        // Two passes, as `if` sees values before `properties` coerce them: the text fields take their
        // types first (what does not fit stays as sent), then the typed body is checked.
        const coerceTypes = coercing.compile(schema as object);
        const check = ajv.compile(schema as object);
        const validate = (data: unknown) => {
          coerceTypes(data);
          const valid = check(data);
          validate.errors = check.errors;
          return valid;
        };
        validate.errors = null as ErrorObject[] | null | undefined;
        return validate;
      };
    },
  };
}
