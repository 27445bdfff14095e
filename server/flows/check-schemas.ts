import { Ajv, type ValidateFunction } from 'ajv';
import type { CheckInput } from './check-input';
import { stepPatchSchema } from './patch-schema';
import { isPlainObject, type Problem } from './problems';
import { describeErrors } from './schema-errors';
import { SchemaWalk } from './schema-walk';

/** The schemas flows:check checks with: the meta-schema's (a flow file, a step, a condition, a patch) and the step schemas'. */
export interface Schemas {
  checkMeta: ValidateFunction;
  checkStep: ValidateFunction;
  isCondition: ValidateFunction;
  checkPatch: ValidateFunction;
  /** Each usable step schema's validator, by file name. */
  validators: Map<string, ValidateFunction>;
  /** Each usable step schema's walker (uiSchema keys, payload pointers), by file name. */
  walks: Map<string, SchemaWalk>;
  /** Step schemas already reported broken (the steps naming one say nothing more). */
  broken: Set<string>;
}

const META_ID = 'flow.schema.json';

/**
 * Compiles the meta-schema (flows/flow.schema.json) and every step schema, reporting in `problems` a
 * step schema that is no valid JSON Schema (by name, once); null when the meta-schema cannot be used
 * (then no flow file can be checked).
 */
export function compileSchemas(input: CheckInput, problems: Problem[]): Schemas | null {
  // verbose: the errors carry their schema, so a oneOf is reported through the branch that was meant.
  const ajv = new Ajv({ allErrors: true, strict: false, verbose: true });
  const metaSchema = { ...(input.metaSchema as Record<string, unknown>), $id: META_ID };
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
    return null;
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
  return { checkMeta, checkStep, isCondition, checkPatch, validators, walks, broken };
}
