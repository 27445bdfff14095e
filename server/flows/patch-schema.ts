import { isPlainObject } from './problems';

type Schema = Record<string, unknown>;

/**
 * The JSON Schema of a variant's patch of a step, derived from the step's own schema in the
 * meta-schema (`#/definitions/step` of flows/flow.schema.json), as variants are applied
 * (src/core/flow/resolve.ts, RFC 7386 merge patch): every property optional; `null` allowed where the
 * patch removes a key; objects with known properties (the step, `submit`, `submit.then`) are patches
 * themselves, maps (`copy`, `payload`, `store`) take null per entry; arrays, conditions and other
 * values replace what the step has, so they are checked whole. Unknown properties stay refused
 * (`uischema` for `uiSchema`). What removing a required property breaks shows on the patched step.
 */
export function stepPatchSchema(metaSchema: Schema, id = 'flow-step-patch.schema.json'): Schema {
  const definitions = isPlainObject(metaSchema.definitions) ? metaSchema.definitions : {};
  const resolve = (schema: Schema): Schema => {
    const ref = typeof schema.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(schema.$ref) : null;
    if (!ref || !isPlainObject(definitions[ref[1]])) return schema;
    const { $ref: _ref, ...rest } = schema;
    void _ref;
    return { ...(definitions[ref[1]] as Schema), ...rest };
  };
  const isPatchable = (schema: Schema) =>
    !Array.isArray(schema.oneOf) && !Array.isArray(schema.anyOf) && (isPlainObject(schema.properties) || isPlainObject(schema.additionalProperties));

  function patchOf(given: Schema): Schema {
    const schema = resolve(given);
    if (!isPatchable(schema)) return given;
    const { required: _required, minProperties: _min, ...out } = schema;
    void _required;
    void _min;
    if (isPlainObject(schema.properties)) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, isPlainObject(v) ? nullable(patchOf(v)) : v]));
    }
    if (isPlainObject(schema.additionalProperties)) out.additionalProperties = nullable(patchOf(schema.additionalProperties));
    return out;
  }

  function nullable(given: Schema): Schema {
    const schema = resolve(given);
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[keyword]) && schema.type === undefined) return { ...schema, [keyword]: [{ type: 'null' }, ...(schema[keyword] as Schema[])] };
    }
    if ('const' in schema) {
      const { const: value, ...rest } = schema;
      return { ...rest, enum: [value, null] };
    }
    if (Array.isArray(schema.enum)) return { ...schema, enum: [...(schema.enum as unknown[]), null] };
    const composed = ['not', 'allOf', 'if', 'oneOf', 'anyOf'].some((k) => k in schema);
    if (schema.type !== undefined && !composed) return { ...schema, type: [...new Set([schema.type, 'null'].flat())] };
    if (!composed && schema.type === undefined && !Object.keys(schema).some((k) => k !== 'description')) return schema;
    return { anyOf: [{ type: 'null' }, schema] };
  }

  const step = isPlainObject(definitions.step) ? definitions.step : {};
  return { $id: id, definitions, ...patchOf(step) };
}
