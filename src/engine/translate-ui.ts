const TRANSLATED = new Set(['ui:title', 'ui:description', 'ui:help', 'ui:placeholder']);

/** A uiSchema with its locale keys (ui:title, ui:description, ui:help, ui:placeholder) translated. */
export function translateUiSchema<T>(uiSchema: T, t: (key: string) => string): T {
  if (Array.isArray(uiSchema)) return uiSchema.map((v) => translateUiSchema(v, t)) as T;
  if (!uiSchema || typeof uiSchema !== 'object') return uiSchema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(uiSchema)) {
    out[key] = TRANSLATED.has(key) && typeof value === 'string' ? t(value) : translateUiSchema(value, t);
  }
  return out as T;
}

/** `{ field: ["msg"] }` (422 payload) -> rjsf ErrorSchema `{ field: { __errors: ["msg"] } }`; dotted keys nest. */
export function toErrorSchema(fields: Record<string, string[]>): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  for (const [field, messages] of Object.entries(fields)) {
    let node = schema;
    for (const part of field.split('.')) node = (node[part] ??= {}) as Record<string, unknown>;
    node.__errors = messages.slice(0, 1);
  }
  return schema;
}
