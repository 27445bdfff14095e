import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpolate, markedLocale, markedText } from '../copy';

/**
 * Staff edit copy, not tests (STYLE.md; issue 33): the proof that no test hard-codes a step's text.
 *
 * How: every text of locales/ro/steps.json and locales/en/steps.json is rewritten into a temporary
 * folder (`markedText`: each word marked, "Pasul următor" → "Pasulǂ următorǂ ⟨common.next⟩", the
 * `{{placeholders}}`, line breaks and Markdown kept; the key in brackets, so two keys of one text
 * differ too), and the tests that read step copy run again, in a child `vitest run`, with
 * `COPY_LOCALES_DIR` naming that folder: the app's and the tests' imports of the locale files then
 * resolve to the rewritten ones (scripts/vite-plugin-copy-locales.ts; never in a production build),
 * and so do the tests' file reads (tests/copy.ts). They must all pass: a test that waits for a text
 * of its own fails, as it would after staff changed that text. tests/scripts/copy-locales.test.ts,
 * one of them, proves the rewritten copy is the one in use.
 *
 * Which tests: those that read step copy (`COPY_READERS`: the engine's `t`, the locale files, tests/copy.ts,
 * a `steps:` key, the prerendered pages), found in their source, so a new one is included by itself.
 * That no other test holds a step's text itself is checked here too, in every test's source (the
 * e2e specs included, which this run cannot start: no Playwright here). The server's tests are not
 * concerned: of the locale files the server reads only the identity step's reasons (`identity.reasons`,
 * server/identity/reasons.ts), from the repository's file, as its tests do; its messages are its own
 * (server/messages).
 * About 2 minutes on 2 cores; no Playwright.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const LANGUAGES = ['ro', 'en'] as const;
const THIS_FILE = 'tests/scripts/copy-rewrite.test.ts';

/** What shows that a test reads step copy, in its source. */
const COPY_READERS = /locales\/(?:ro|en)\/steps\.json|from '(?:\.\.\/engine|\.)\/render'|from '\.\.\/copy'|'steps:|'@\/prerender'/;

/**
 * Test sources exempt from the hard-coded text check: a test whose strings are samples of Romanian
 * for a detector, not copy it asserts.
 */
const NOT_CHECKED = new Set(['tests/core/no-romanian-literals.test.ts']);

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

function testSources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

type Texts = { key: string; text: string }[];
function texts(json: unknown, keyPath: string[] = []): Texts {
  if (typeof json === 'string') return [{ key: keyPath.join('.'), text: json }];
  if (json === null || typeof json !== 'object') return [];
  return Object.entries(json).flatMap(([k, v]) => texts(v, [...keyPath, k]));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*\w+\s*\}\}/g)].map((m) => m[0]).sort();

describe('every step text rewritten: the tests that read step copy still pass', () => {
  let dir = '';
  const original = Object.fromEntries(LANGUAGES.map((lng) => [lng, JSON.parse(read(`locales/${lng}/steps.json`)) as unknown]));

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-rewrite-'));
    for (const lng of LANGUAGES) {
      fs.mkdirSync(path.join(dir, lng));
      fs.writeFileSync(path.join(dir, lng, 'steps.json'), JSON.stringify(markedLocale(original[lng]), null, 2));
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('markedText: other words, the same placeholders, line breaks and Markdown', () => {
    expect(markedText('Pasul {{position}} din {{total}}', 'common.progress')).toBe('Pasulǂ {{position}} dinǂ {{total}} ⟨common.progress⟩');
    expect(markedText('Unu\nDoi', 'tips')).toBe('Unuǂ\nDoiǂ ⟨tips⟩');
    expect(markedText('Vezi **[termenii](https://ghiseu.ro/termeni)**', 'k')).toBe('Veziǂ **[termeniiǂ](https://ghiseu.ro/termeni)** ⟨k⟩');
    for (const lng of LANGUAGES) {
      const rewritten = texts(JSON.parse(fs.readFileSync(path.join(dir, lng, 'steps.json'), 'utf8')));
      const before = texts(original[lng]);
      expect(rewritten.map((t) => t.key)).toEqual(before.map((t) => t.key));
      before.forEach(({ text }, i) => {
        expect(rewritten[i].text).not.toBe(text);
        expect(placeholders(rewritten[i].text)).toEqual(placeholders(text));
        expect(rewritten[i].text.split('\n')).toHaveLength(text.split('\n').length);
      });
    }
  });

  it('no test holds a step text of its own (a string of the steps copy, in its source)', () => {
    // Texts that are something else too: another namespace's copy, the seed's names (the activities'
    // fakes), the brand's name; and one-word texts, which tests use as plain words too.
    const elsewhere = new Set(
      fs
        .readdirSync(path.join(root, 'locales/ro'))
        .filter((f) => f !== 'steps.json')
        .flatMap((f) => LANGUAGES.flatMap((lng) => (fs.existsSync(path.join(root, 'locales', lng, f)) ? texts(JSON.parse(read(`locales/${lng}/${f}`))) : [])))
        .map((t) => t.text),
    );
    for (const seed of ['activities.json', 'marital-statuses.json', 'lost-reasons.json']) {
      const file = path.join(root, 'server/db/seed', seed);
      if (fs.existsSync(file)) for (const t of texts(JSON.parse(fs.readFileSync(file, 'utf8')))) elsewhere.add(t.text);
    }
    const stepTexts = new Set(
      LANGUAGES.flatMap((lng) => texts(original[lng]))
        .map((t) => interpolate(t.text))
        .filter((text) => /\p{L}+\P{L}+\p{L}+/u.test(text) && !elsewhere.has(text)),
    );
    const literal = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`/g;
    const found: string[] = [];
    for (const file of [...testSources('tests')].filter((f) => !f.startsWith('tests/server/') && !NOT_CHECKED.has(f) && f !== THIS_FILE && f !== 'tests/copy.ts')) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
          for (const m of line.matchAll(literal)) {
            const value = (m[1] ?? m[2] ?? m[3]).replace(/\\(['"`])/g, '$1');
            if (stepTexts.has(value)) found.push(`${file}:${i + 1}: ${JSON.stringify(value)}`);
          }
        });
    }
    expect(found, 'read these from the locale file (tests/engine/render.tsx `t`, tests/copy.ts `localeText`)').toEqual([]);
  });

  it.skipIf(process.env.COPY_LOCALES_DIR)(
    'the engine, widget, web and prerender tests that read step copy pass with the rewritten copy',
    async () => {
      const files = ['tests/engine', 'tests/widgets', 'tests/web', 'tests/scripts']
        .flatMap(testSources)
        .filter((f) => /\.test\.tsx?$/.test(f) && f !== THIS_FILE && COPY_READERS.test(read(f)));
      expect(files).toContain('tests/scripts/copy-locales.test.ts');
      expect(files).toContain('tests/engine/wizard.test.tsx');
      const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(path.join(root, 'node_modules/.bin/vitest'), ['run', '--project', 'unit', '--project', 'web', '--reporter', 'dot', ...files], {
          cwd: root,
          env: { ...process.env, COPY_LOCALES_DIR: dir, NODE_ENV: 'test', FORCE_COLOR: '0' },
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('close', (code) => resolve({ code, output }));
      });
      const failures = run.output.split('\n').filter((l) => /FAIL|AssertionError|Unable to find|Expected|Received|Error:/.test(l));
      expect(run.code, `the tests with every step text rewritten (COPY_LOCALES_DIR=${dir}):\n${failures.slice(0, 80).join('\n')}\n…\n${run.output.slice(-3000)}`).toBe(0);
    },
    600_000,
  );
});
