import fs from 'node:fs';
import path from 'node:path';
import type { Problem } from './problems';

export type Parsed = { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string };

/** JSON.parse, whose error says where (line and column, from 1) instead of a character offset. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const raw = (error as Error).message;
    const at = /at position (\d+)/.exec(raw);
    const offset = at ? Number(at[1]) : text.length;
    const before = text.slice(0, offset).split('\n');
    const message = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/ in JSON at position \d+$/, '')
      .replace(/, "[\s\S]*" is not valid JSON$/, '');
    return { ok: false, line: before.length, column: before[before.length - 1].length + 1, message };
  }
}

/** A file that is not JSON, as a problem: `not valid JSON (line 212, column 7): Expected ',' or '}' after property value`. */
export function syntaxProblem(file: string, parsed: Extract<Parsed, { ok: false }>): Problem {
  return { level: 'error', file, path: '#', message: `not valid JSON (line ${parsed.line}, column ${parsed.column}): ${parsed.message}` };
}

/** Reads one JSON file; what cannot be read or parsed is a problem named `label`. */
export function readJsonFile(file: string, label: string): { value: unknown } | { problem: Problem } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { problem: { level: 'error', file: label, path: '#', message: `cannot be read: ${(error as Error).message}` } };
  }
  const parsed = parseJson(text);
  return parsed.ok ? { value: parsed.value } : { problem: syntaxProblem(label, parsed) };
}

/**
 * The `*.json` files of a folder by name (sorted), each parsed, named `${label}${name}`; a file
 * that is not JSON (or a folder that cannot be read) is a problem instead.
 */
export function readJsonFolder(dir: string, label: string, skip: (name: string) => boolean = () => false): { files: { name: string; value: unknown }[]; unreadable: Problem[] } {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json') && !skip(f))
      .sort();
  } catch (error) {
    return { files: [], unreadable: [{ level: 'error', file: label, path: '#', message: `the folder cannot be read: ${(error as Error).message}` }] };
  }
  const files: { name: string; value: unknown }[] = [];
  const unreadable: Problem[] = [];
  for (const name of names) {
    const read = readJsonFile(path.join(dir, name), `${label}${name}`);
    if ('problem' in read) unreadable.push(read.problem);
    else files.push({ name, value: read.value });
  }
  return { files, unreadable };
}
