import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import loaders from 'virtual:step-validators';

const schemas = import.meta.glob<RJSFSchema>('../../schemas/*.json', { eager: true, import: 'default' });

export function stepSchema(id: string): RJSFSchema {
  const schema = schemas[`../../schemas/${id}`];
  if (!schema) throw new Error(`unknown step schema ${id}`);
  return schema;
}

const cache = new Map<string, Promise<ValidatorType>>();
const ready = new Map<string, ValidatorType>();

/** The validator of a step schema if it has arrived already (preloaded), so the first render can use it. */
export function loadedValidator(id: string): ValidatorType | null {
  return ready.get(id) ?? null;
}

/** The precompiled validator of a step schema (built at build time: no eval under the CSP). */
export function stepValidator(id: string): Promise<ValidatorType> {
  let validator = cache.get(id);
  if (!validator) {
    const load = loaders[id];
    if (!load) throw new Error(`no precompiled validator for ${id}`);
    validator = load().then((mod) => {
      const fns = (mod as unknown as { default?: typeof mod }).default ?? mod;
      const compiled = createPrecompiledValidator(fns, stepSchema(id));
      ready.set(id, compiled);
      return compiled;
    });
    cache.set(id, validator);
  }
  return validator;
}
