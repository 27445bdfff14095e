import type { FastifyRequest } from 'fastify';
import type { FieldErrors } from '../../src/core/api-types';
import { FieldValidationError } from './http-errors';

/**
 * What any request may carry before it reaches the database (issue 13, "no input produces a 5xx").
 * Ids and counts are PostgreSQL `integer`s: a larger number would fail in the database, so route
 * schemas bound them with these fragments (the step schemas in schemas/*.json repeat the bound in
 * JSON: `"maximum": 2147483647`). Strings are checked by `refuseControlCharacters` on every route.
 */
export const DB_INT_MAX = 2147483647;
export const DB_INT_MIN = -2147483648;

/** A row id: 1 … 2^31−1. */
export const dbId = { type: 'integer', minimum: 1, maximum: DB_INT_MAX } as const;

/** An offset or count used in SQL (OFFSET, LIMIT): 0 … 2^31−1. */
export const dbOffset = { type: 'integer', minimum: 0, maximum: DB_INT_MAX } as const;

export const CONTROL_CHARACTERS_MESSAGE = 'Textul conține caractere nepermise.';

/**
 * C0 control characters except tab, line feed and carriage return (multi-line fields keep their
 * lines), DEL and the C1 controls. PostgreSQL refuses NUL in text and jsonb; the others have no
 * place in anything a person types.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/** Half of a surrogate pair without its other half: no UTF-8 for it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** False for text PostgreSQL cannot store: control characters, or a lone UTF-16 surrogate (not UTF-8). */
export function isStorableText(value: string): boolean {
  return value.search(CONTROL) < 0 && value.search(LONE_SURROGATE) < 0;
}

/** The text without what `isStorableText` refuses (for names nobody typed here, e.g. an uploaded file's name). */
export function storableText(value: string): string {
  return value.replace(CONTROL, '').replace(LONE_SURROGATE, '');
}

const MAX_DEPTH = 32;

function printable(key: string): string {
  return isStorableText(key) ? key : key.replace(CONTROL, '?').replace(LONE_SURROGATE, '?');
}

/** Collects `{ field: [message] }` for every string (and object key) that is not storable, at any depth. */
function collect(value: unknown, path: string, fields: FieldErrors, depth: number): void {
  if (typeof value === 'string') {
    if (!isStorableText(value)) fields[path || '_'] = [CONTROL_CHARACTERS_MESSAGE];
    return;
  }
  // An uploaded file (server/lib/multipart.ts): its bytes are not text, its name is cleaned there.
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value) || Buffer.isBuffer((value as { data?: unknown }).data)) return;
  if (depth > MAX_DEPTH) return;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const childPath = path ? `${path}.${printable(key)}` : printable(key);
    if (!isStorableText(key)) fields[childPath] = [CONTROL_CHARACTERS_MESSAGE];
    collect(child, childPath, fields, depth + 1);
  }
}

/**
 * A preHandler hook for every route (registered once in app.ts, so a route added later is covered):
 * URL params, the query string and the body (JSON, form or the text fields of a multipart body,
 * which server/lib/multipart.ts has read by then) must hold storable text, else 422 with a field
 * error per field. It runs after the route's JSON Schema, before the route's own preHandlers.
 */
export function refuseControlCharacters(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  const fields: FieldErrors = {};
  collect(request.params, '', fields, 0);
  collect(request.query, '', fields, 0);
  collect(request.body, '', fields, 0);
  // Callback-style (no promise per request): it runs on every route.
  done(Object.keys(fields).length ? new FieldValidationError(fields) : undefined);
}
