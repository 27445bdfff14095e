import type { ErrorObject } from 'ajv';
import { closest, escapeSegment, isPlainObject } from './problems';

/** A JSON Schema error where it is written (a pointer into the checked value) and what it says. */
export interface Located {
  pointer: string;
  message: string;
}

type Schema = Record<string, unknown>;

/** The keywords that show a `oneOf`/`anyOf` branch is not the one meant (a condition without its key, a string where an object goes). */
const NOT_MEANT = new Set(['type', 'required', 'const', 'enum']);

const under = (pointer: string, parent: string) => pointer.startsWith(`${parent}/`);
const quoted = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * Ajv's errors (compiled with `verbose: true`) as a person reads them: one line per mistake at the
 * pointer where it is written. A `oneOf`/`anyOf` (a condition, a payload source, a value a variant
 * may remove with null) is reported through the branch that was meant (the one whose key or type the
 * value has) instead of through every branch; an unknown property at its own pointer, with the known
 * name it looks like.
 */
export function describeErrors(errors: readonly ErrorObject[]): Located[] {
  const dropped = new Set<ErrorObject>();
  const summaries = new Map<ErrorObject, string>();
  for (const choice of errors) {
    if ((choice.keyword !== 'oneOf' && choice.keyword !== 'anyOf') || !Array.isArray(choice.schema)) continue;
    const at = choice.instancePath;
    const branches = choice.schema as Schema[];
    const own = errors.filter((e) => e !== choice && e.instancePath === at && branches.includes(e.parentSchema as Schema));
    const meant = branches.filter((b) => !own.some((e) => e.parentSchema === b && NOT_MEANT.has(e.keyword)));
    if (!meant.length) {
      // No branch fits at all: one line that says what may be written there.
      for (const e of errors) if (e !== choice && (own.includes(e) || under(e.instancePath, at))) dropped.add(e);
      summaries.set(choice, `must be ${branches.map(describeBranch).join(' or ')}${foundKeys(choice.data, branches)}`);
      continue;
    }
    const keys = meant.map((b) => (Array.isArray(b.required) ? b.required[0] : undefined));
    if (meant.length > 1 && keys.every((k) => typeof k === 'string')) {
      // Several branches' keys at once (a condition with "partner" and "activity"): one line, not one per branch.
      for (const e of own) dropped.add(e);
      summaries.set(choice, `must have only one of ${keys.map((k) => `"${String(k)}"`).join(', ')}`);
      continue;
    }
    for (const e of own) if (!meant.includes(e.parentSchema as Schema)) dropped.add(e);
    // Deeper errors under a property only the other branches declare (a field condition's `in` beside `partner`).
    if (meant.every((b) => isPlainObject(b.properties))) {
      const declared = new Set(meant.flatMap((b) => Object.keys(b.properties as Schema)));
      for (const e of errors) {
        if (!under(e.instancePath, at)) continue;
        const key = e.instancePath.slice(at.length + 1).split('/')[0].replace(/~1/g, '/').replace(/~0/g, '~');
        if (!declared.has(key)) dropped.add(e);
      }
    }
    dropped.add(choice);
  }
  // A choice whose meant branch shows no error of its own matched several branches: say so.
  for (const choice of errors) {
    if (!dropped.has(choice) || summaries.has(choice) || choice.keyword !== 'oneOf' || !Array.isArray(choice.schema)) continue;
    const at = choice.instancePath;
    if (!errors.some((e) => e !== choice && !dropped.has(e) && (e.instancePath === at || under(e.instancePath, at)))) {
      dropped.delete(choice);
    }
  }
  // propertyNames: the inner error names the property; the outer one repeats it.
  const named = new Set(errors.filter((e) => e.propertyName !== undefined).map((e) => e.instancePath));
  const out: Located[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (dropped.has(e)) continue;
    if (e.keyword === 'propertyNames' && named.has(e.instancePath)) continue;
    const located = summaries.has(e) ? { pointer: e.instancePath, message: summaries.get(e)! } : describe(e);
    const key = `${located.pointer} ${located.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(located);
  }
  return out;
}

function describe(e: ErrorObject): Located {
  const params = e.params as Record<string, unknown>;
  const parent = isPlainObject(e.parentSchema) ? e.parentSchema : {};
  if (e.propertyName !== undefined) {
    return { pointer: `${e.instancePath}/${escapeSegment(e.propertyName)}`, message: `the name "${e.propertyName}" ${e.message ?? 'is not valid'}` };
  }
  switch (e.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const known = isPlainObject(parent.properties) ? Object.keys(parent.properties) : [];
      const guess = closest(name, known);
      return { pointer: `${e.instancePath}/${escapeSegment(name)}`, message: `unknown property "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}` };
    }
    case 'required':
      return { pointer: e.instancePath, message: `must have required property "${String(params.missingProperty)}"` };
    case 'type':
      return { pointer: e.instancePath, message: `must be ${[params.type].flat().join(' or ')}` };
    case 'enum':
      return { pointer: e.instancePath, message: `must be one of ${quoted(params.allowedValues as unknown[])}` };
    case 'const':
      return { pointer: e.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'not': {
      const required = isPlainObject(e.schema) && Array.isArray(e.schema.required) ? (e.schema.required as string[]) : [];
      return { pointer: e.instancePath, message: required.length ? `must not have ${required.map((r) => `"${r}"`).join(', ')}` : (e.message ?? 'is not valid') };
    }
    default:
      return { pointer: e.instancePath, message: e.message ?? `is not valid (${e.keyword})` };
  }
}

function describeBranch(branch: Schema): string {
  if (Array.isArray(branch.required) && branch.required.length) return `{"${String(branch.required[0])}": …}`;
  if ('const' in branch) return JSON.stringify(branch.const);
  if (Array.isArray(branch.enum)) return `one of ${quoted(branch.enum)}`;
  if (branch.type !== undefined) return [branch.type].flat().join(' or ');
  if (typeof branch.$ref === 'string') return branch.$ref.replace(/^.*\//, '');
  return 'another form';
}

/** For an object that fits no branch: the keys it has, and the branch key a misspelled one looks like. */
function foundKeys(data: unknown, branches: Schema[]): string {
  if (!isPlainObject(data)) return '';
  const keys = Object.keys(data);
  if (!keys.length) return ' (it is empty)';
  const known = branches.flatMap((b) => (Array.isArray(b.required) ? (b.required as string[]) : []));
  const guesses = keys.map((k) => closest(k, known)).filter((g): g is string => g !== null);
  return ` (it has ${keys.map((k) => `"${k}"`).join(', ')}${guesses.length ? `; did you mean "${guesses[0]}"?` : ''})`;
}
