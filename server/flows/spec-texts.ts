import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonFile } from './json-file';
import { isPlainObject, pointerSegments } from './problems';

/**
 * The spec's texts and the product's (DESIGN.md "Quality bars": Romanian copy as in the spec by default;
 * product staff may change it, and `flows:check` lists what differs from the spec's texts). The spec's
 * quotes live in one file, content/spec-texts.json: where the product keeps each text (a locale or flow
 * file and a JSON pointer into it) → the spec's text. A text that no longer reads as the spec's is
 * information for whoever reviews copy, never a mistake: scripts/flows-check.ts prints these notes
 * after its problems and they change neither its counts nor its exit code.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SPEC_TEXTS_FILE = 'content/spec-texts.json';

export interface SpecTextNote {
  level: 'info';
  /** The file as the repository names it: `locales/ro/steps.json`. */
  file: string;
  /** JSON pointer into it, with its `#`: `#/card/title`. */
  path: string;
  message: string;
}

/** The spec writes a placeholder `{product}`, the locale files `{{product}}`: the same text. */
const sameText = (spec: string, current: string) => current.replace(/\{\{\s*(\w+)\s*\}\}/g, '{$1}') === spec;

/** The value at `pointer` (`#/a/b`) in `json`, or undefined. */
function at(json: unknown, pointer: string): unknown {
  let node = json;
  for (const segment of pointerSegments(pointer)) node = isPlainObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
  return node;
}

/**
 * One note per text of `specTexts` (`"<file>#<pointer>": "<the spec's text>"`) that `read(file)` no
 * longer has as the spec wrote it: changed, or gone. A file `read` cannot give (undefined) is one note
 * (its texts not compared; flows:check reports an unreadable locale or flow file as a problem too).
 */
export function specTextNotes(specTexts: Record<string, string>, read: (file: string) => unknown): SpecTextNote[] {
  const notes: SpecTextNote[] = [];
  const unreadable = new Set<string>();
  for (const [where, spec] of Object.entries(specTexts)) {
    const hash = where.indexOf('#');
    const file = hash < 0 ? where : where.slice(0, hash);
    const pointer = hash < 0 ? '#' : where.slice(hash);
    const json = read(file);
    if (json === undefined) {
      if (!unreadable.has(file)) notes.push({ level: 'info', file, path: '#', message: 'cannot be read: its texts were not compared with the spec' });
      unreadable.add(file);
      continue;
    }
    const current = at(json, pointer);
    if (typeof current === 'string' && sameText(spec, current)) continue;
    const message = typeof current === 'string' ? `differs from the spec (${JSON.stringify(spec)})` : `no text here any more (the spec's: ${JSON.stringify(spec)})`;
    notes.push({ level: 'info', file, path: pointer, message });
  }
  return notes;
}

/**
 * The notes for the repository's files (content/spec-texts.json against the locale and flow files it
 * names, `root` the repository's folder). A spec-texts file that cannot be read or has no `texts` object
 * is one note saying so.
 */
export function repositorySpecTextNotes(root = ROOT): SpecTextNote[] {
  const read = readJsonFile(path.join(root, SPEC_TEXTS_FILE), SPEC_TEXTS_FILE);
  if ('problem' in read) return [{ level: 'info', file: SPEC_TEXTS_FILE, path: '#', message: `spec texts not compared: ${read.problem.message}` }];
  const texts = isPlainObject(read.value) ? read.value.texts : undefined;
  if (!isPlainObject(texts) || !Object.values(texts).every((t) => typeof t === 'string')) {
    return [{ level: 'info', file: SPEC_TEXTS_FILE, path: '#/texts', message: 'spec texts not compared: "texts" must map "<file>#<pointer>" to the spec\'s text' }];
  }
  const files = new Map<string, unknown>();
  return specTextNotes(texts as Record<string, string>, (file) => {
    if (!files.has(file)) {
      const got = readJsonFile(path.join(root, file), file);
      files.set(file, 'problem' in got ? undefined : got.value);
    }
    return files.get(file);
  });
}

/** The command's line for a note: `info    locales/ro/steps.json#/card/title: differs from the spec ("…")`. */
export function formatSpecTextNote(note: SpecTextNote): string {
  return `info    ${note.file}${note.path}: ${note.message}`;
}
