/**
 * Language parity (issue 33): every namespace file of locales/ro has its twin in locales/en and the
 * other way round, with the same keys, a non-empty text for each, and the same {{placeholders}}.
 * The files are read from the folders, so a namespace added later is checked without a change here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES = path.resolve(__dirname, '../../locales');
const LANGUAGES = ['ro', 'en'] as const;

const files = (lng: string) => fs.readdirSync(path.join(LOCALES, lng)).filter((f) => f.endsWith('.json')).sort();

/** Every text of a namespace by its dotted key (arrays by index). */
function texts(node: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) texts(value, prefix ? `${prefix}.${key}` : key, out);
  } else out.set(prefix, node);
  return out;
}

const load = (lng: string, file: string) => texts(JSON.parse(fs.readFileSync(path.join(LOCALES, lng, file), 'utf8')));
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort().join(',');

/** What keeps two namespaces from being one text in two languages, one line each (none: in parity). */
function parityProblems(ro: Map<string, unknown>, en: Map<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of new Set([...ro.keys(), ...en.keys()])) {
    const pair = { ro: ro.get(key), en: en.get(key) };
    for (const lng of LANGUAGES) {
      const text = pair[lng];
      if (text === undefined) problems.push(`${key}: missing in ${lng}`);
      else if (typeof text !== 'string' || !text.trim()) problems.push(`${key}: no text in ${lng}`);
    }
    if (typeof pair.ro === 'string' && typeof pair.en === 'string' && placeholders(pair.ro) !== placeholders(pair.en)) {
      problems.push(`${key}: placeholders {${placeholders(pair.ro)}} in ro, {${placeholders(pair.en)}} in en`);
    }
  }
  return problems;
}

describe('locales: Romanian and English side by side', () => {
  it('both languages have the same namespace files', () => {
    expect(files('ro').length).toBeGreaterThan(0);
    expect(files('en')).toEqual(files('ro'));
  });

  it.each(files('ro'))('%s: the same keys, each a non-empty text, with the same placeholders', (file) => {
    expect(parityProblems(load('ro', file), load('en', file))).toEqual([]);
  });

  it('the check names a key missing in either language, an empty text and other placeholders', () => {
    const ro = texts({ step: 'Pasul {{position}} · {{name}}', yes: 'Da', no: 'Nu', list: { any: 'Toate' } });
    const en = texts({ step: 'Step {{n}} · {{name}}', yes: ' ', list: { any: 'Any', extra: 'More' } });
    expect(parityProblems(ro, en)).toEqual([
      'step: placeholders {name,position} in ro, {n,name} in en',
      'yes: no text in en',
      'no: missing in en',
      'list.extra: missing in ro',
    ]);
  });
});
