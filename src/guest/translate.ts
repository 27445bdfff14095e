/**
 * The few i18next features the guest pages use, without i18next (issue 14: the guest pages load
 * ≤ 120 KiB of JavaScript; i18next + react-i18next weigh ~18 KiB gzip). Same resource files
 * (locales/ro/*.json), same keys: `ns:key.path` or a key of the hook's namespace, `{{name}}`
 * interpolation (no escaping, as `interpolation.escapeValue: false` in src/shared/i18n.ts), and a
 * missing key answers the key itself. tests/web/guest-translate.test.tsx checks every Romanian key
 * against i18next's own answer. No plurals, nesting or formats: the copy uses none (the test fails
 * if a string ever does).
 */
export type Resources = Record<string, Record<string, unknown>>;
export type Translate = (key: string, options?: Record<string, unknown>) => string;

function lookup(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** `t` of namespace `ns` over `resources` (one language). */
export function createTranslate(resources: Resources, ns: string): Translate {
  return (key, options = {}) => {
    const colon = key.indexOf(':');
    const [namespace, path] = colon > 0 ? [key.slice(0, colon), key.slice(colon + 1)] : [ns, key];
    const value = lookup(resources[namespace], path);
    if (typeof value !== 'string') return path;
    return value.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
      const v = lookup(options, name);
      return v === undefined || v === null ? '' : String(v);
    });
  };
}
