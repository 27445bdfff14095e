import { isPlainObject } from './problems';

type Schema = Record<string, unknown>;

/**
 * Which part of a step's JSON Schema a uiSchema key or a payload pointer names: the subschemas of a
 * property (through allOf/anyOf/oneOf, if/then/else, dependencies and local $ref), `[{}]` when the
 * schema leaves that level open, null when it names nothing there.
 */
export class SchemaWalk {
  constructor(private readonly root: Schema) {}

  /** The schemas of the value at `segments` (a payload pointer's), or null at the first segment that names nothing. */
  at(segments: string[]): Schema[] | null {
    let current: Schema[] = [this.root];
    for (const segment of segments) {
      const next = this.child(current, segment);
      if (!next) return null;
      current = next;
    }
    return current;
  }

  /** A uiSchema key under a uiSchema node for `schemas`: a property, or `items` / `additionalProperties`. */
  uiChild(schemas: Schema[], key: string): Schema[] | null {
    const parts = schemas.flatMap((s) => this.parts(s));
    if (key === 'items') {
      const items = parts.flatMap((p) => (isPlainObject(p.items) ? [p.items] : Array.isArray(p.items) ? (p.items as Schema[]) : []));
      if (items.length) return items;
    }
    if (key === 'additionalProperties') {
      const extra = parts.flatMap((p) => (isPlainObject(p.additionalProperties) ? [p.additionalProperties] : []));
      if (extra.length) return extra;
    }
    return this.child(schemas, key, false);
  }

  private child(schemas: Schema[], segment: string, arrayIndex = true): Schema[] | null {
    const parts = schemas.flatMap((s) => this.parts(s));
    const found: Schema[] = [];
    for (const p of parts) {
      if (isPlainObject(p.properties) && isPlainObject(p.properties[segment])) found.push(p.properties[segment]);
      if (isPlainObject(p.patternProperties)) {
        for (const [pattern, s] of Object.entries(p.patternProperties)) if (isPlainObject(s) && safeTest(pattern, segment)) found.push(s);
      }
      if (arrayIndex && /^(\d+|-)$/.test(segment)) {
        if (isPlainObject(p.items)) found.push(p.items);
        else if (Array.isArray(p.items)) {
          const tuple = p.items[Number(segment)] as unknown;
          if (isPlainObject(tuple)) found.push(tuple);
          else if (isPlainObject(p.additionalItems)) found.push(p.additionalItems);
        }
      }
    }
    if (found.length) return found;
    const extra = parts.flatMap((p) => (isPlainObject(p.additionalProperties) ? [p.additionalProperties] : []));
    if (extra.length) return extra;
    const closed = parts.some((p) => 'properties' in p || 'patternProperties' in p || 'items' in p || p.additionalProperties === false);
    const scalar = parts.some((p) => p.type !== undefined && ![p.type].flat().some((t) => t === 'object' || t === 'array'));
    return closed || scalar ? null : [{}];
  }

  /** A schema with the schemas it is composed of. */
  private parts(schema: Schema, seen = new Set<Schema>()): Schema[] {
    if (seen.has(schema)) return [];
    seen.add(schema);
    const out: Schema[] = [schema];
    const more: unknown[] = [];
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(schema[k])) more.push(...(schema[k] as unknown[]));
    for (const k of ['if', 'then', 'else'] as const) more.push(schema[k]);
    if (isPlainObject(schema.dependencies)) more.push(...Object.values(schema.dependencies));
    const ref = typeof schema.$ref === 'string' ? this.resolve(schema.$ref) : null;
    if (ref) more.push(ref);
    for (const s of more) if (isPlainObject(s)) out.push(...this.parts(s, seen));
    return out;
  }

  private resolve(ref: string): Schema | null {
    if (!ref.startsWith('#/')) return null;
    let node: unknown = this.root;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = isPlainObject(node) ? node[key] : undefined;
    }
    return isPlainObject(node) ? node : null;
  }
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}
