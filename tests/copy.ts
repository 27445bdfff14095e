import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The copy the tests assert, read from the locale files (STYLE.md: "tests read the copy they assert
 * from the locale files: staff edit copy, not tests"), for tests that read files rather than import
 * them (the e2e specs, node scripts). `COPY_LOCALES_DIR` (tests/scripts/copy-rewrite.test.ts) points
 * at another copy of the texts, `<dir>/<lng>/<ns>.json`: read instead of locales/<lng>/<ns>.json when
 * it holds that file, as the app and the tests' imports do (scripts/vite-plugin-copy-locales.ts).
 */

// Not `new URL('..', import.meta.url)`: under jsdom (the web tests) `URL` is jsdom's, which node:url refuses.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Json = Record<string, unknown>;

/** The file a locale namespace is read from: the rewritten copy's when COPY_LOCALES_DIR holds it. */
export function localeFile(lng: string, ns: string): string {
  const dir = process.env.COPY_LOCALES_DIR;
  const copy = dir ? path.join(path.resolve(dir), lng, `${ns}.json`) : null;
  return copy && fs.existsSync(copy) ? copy : path.join(root, 'locales', lng, `${ns}.json`);
}

const cache = new Map<string, Json>();

/** A namespace's texts, `locales/<lng>/<ns>.json` (or the rewritten copy's). */
export function localeJson(lng: string, ns: string): Json {
  const file = localeFile(lng, ns);
  if (!cache.has(file)) cache.set(file, JSON.parse(fs.readFileSync(file, 'utf8')) as Json);
  return cache.get(file)!;
}

/** The brand's name (content/brand.json), what `{{product}}` reads when a test does not say otherwise. */
export const PRODUCT_NAME = (JSON.parse(fs.readFileSync(path.join(root, 'content/brand.json'), 'utf8')) as { name: string }).name;

/**
 * `t` of the tests: the text of `ns:a.b.c` (`steps:card.title`) in `lng` (Romanian by default), with
 * `{{name}}` filled from `vars` (`product` defaults to the brand's name). Throws on a missing key:
 * a test asserting a key's text must name a key that exists.
 */
export function localeText(key: string, vars: Record<string, unknown> = {}, lng = 'ro'): string {
  return interpolate(rawText(key, lng), vars);
}

/** A key's text as the locale file has it, `{{placeholders}}` and all. */
function rawText(key: string, lng: string): string {
  const [ns, keyPath] = key.includes(':') ? key.split(':') : ['steps', key];
  let node: unknown = localeJson(lng, ns);
  for (const part of keyPath.split('.')) node = (node as Json | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`locales/${lng}/${ns}.json has no text ${keyPath}`);
  return node;
}

interface FlowFileStep {
  id: string;
  title: string;
  name?: string;
  copy?: Record<string, string>;
}

/** The steps of the flow files (flows/*.json), by id. */
const flowSteps = new Map<string, FlowFileStep>(
  fs
    .readdirSync(path.join(root, 'flows'))
    .filter((f) => f.endsWith('.json') && f !== 'flow.schema.json')
    .flatMap((f) => (JSON.parse(fs.readFileSync(path.join(root, 'flows', f), 'utf8')) as { steps: FlowFileStep[] }).steps)
    .map((step) => [step.id, step]),
);

/**
 * A step's text as its flow file gives it: its `title`, `name`, or an entry of its `copy` (`submit`:
 * the step's button, `steps:common.next` when the file names none, as the step runner shows it), in
 * `lng`. Tests assert what the flow file says: an edit of the file or of the text leaves them right.
 */
export function flowStepText(stepId: string, part: string, vars: Record<string, unknown> = {}, lng = 'ro'): string {
  const step = flowSteps.get(stepId);
  if (!step) throw new Error(`no step ${stepId} in the flow files`);
  const key = part === 'title' || part === 'name' ? step[part] : part === 'submit' ? (step.copy?.submit ?? 'steps:common.next') : step.copy?.[part];
  if (typeof key !== 'string') throw new Error(`step ${stepId} has no ${part} in its flow file`);
  return localeText(key, vars, lng);
}

/** `{{name}}` of a text filled in from `vars` (`product` defaults to the brand's name), as i18next does. */
export function interpolate(text: string, vars: Record<string, unknown> = {}): string {
  const values: Record<string, unknown> = { product: PRODUCT_NAME, ...vars };
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A RegExp that finds `text` as it is (its special characters escaped), anywhere. */
export function textPattern(text: string, flags = ''): RegExp {
  return new RegExp(escaped(text), flags);
}

/**
 * A RegExp for every text a key can give: its text with each `{{name}}` of `vars` filled in and any
 * other placeholder matching anything (`steps:identity.previewAlt` → /^Fotografia încărcată: .*$/),
 * for a test that does not know (or care about) a value the app fills in.
 */
export function localePattern(key: string, vars: Record<string, unknown> = {}, lng = 'ro'): RegExp {
  const values: Record<string, unknown> = { product: PRODUCT_NAME, ...vars };
  const source = rawText(key, lng)
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part) => {
      const name = /^\{\{\s*(\w+)\s*\}\}$/.exec(part)?.[1];
      if (name === undefined) return escaped(part);
      return name in values ? escaped(String(values[name])) : '[\\s\\S]*';
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** A RegExp for a name that starts with `text` (a field's label before its " *"). */
export function textStart(text: string): RegExp {
  return new RegExp(`^${escaped(text)}`);
}

/**
 * The marked variant of a text (tests/scripts/copy-rewrite.test.ts): every word gets a `ǂ` after it
 * ("Pasul următor" → "Pasulǂ următorǂ"), so no test finds a text it hard-codes, not even a part of it;
 * and the key's path is added in brackets, so two keys of the same text differ too and a test that
 * reads the wrong one fails. `{{placeholders}}`, `$t(nesting)`, line breaks and Markdown's marks
 * (`**`, `[label](url)`: the URL kept) stay as they are.
 */
export function markedText(text: string, key: string): string {
  const kept = /\{\{[^}]*\}\}|\$t\([^)]*\)|\]\([^)]*\)|https?:\/\/\S+/g;
  let out = '';
  let last = 0;
  for (const match of text.matchAll(kept)) {
    out += markWords(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  out += markWords(text.slice(last));
  return `${out} ⟨${key}⟩`;
}

const markWords = (text: string) => text.replace(/\p{L}+/gu, (word) => `${word}ǂ`);

/** A locale namespace with every text replaced by its marked variant (`markedText`), the keys kept. */
export function markedLocale(json: unknown, keyPath: string[] = []): unknown {
  if (typeof json === 'string') return markedText(json, keyPath.join('.'));
  if (Array.isArray(json)) return json.map((item, i) => markedLocale(item, [...keyPath, String(i)]));
  if (json !== null && typeof json === 'object') return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, markedLocale(v, [...keyPath, k])]));
  return json;
}
