import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatSpecTextNote, repositorySpecTextNotes, SPEC_TEXTS_FILE, specTextNotes } from '../../server/flows/spec-texts';
import { formatProblems } from '../../scripts/flows-check';

const root = fileURLToPath(new URL('../..', import.meta.url));
const specTexts = (JSON.parse(fs.readFileSync(path.join(root, SPEC_TEXTS_FILE), 'utf8')) as { texts: Record<string, string> }).texts;

/** A copy of the repository's spec texts and of the files they name, to edit as staff would. */
function copyOfRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-texts-'));
  for (const file of new Set([SPEC_TEXTS_FILE, ...Object.keys(specTexts).map((w) => w.split('#')[0])])) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  }
  return dir;
}

function editJson(file: string, edit: (json: Record<string, any>) => void) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>;
  edit(json);
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

describe('the spec texts (content/spec-texts.json)', () => {
  it('name texts of the locale and flow files, in Romanian', () => {
    expect(Object.keys(specTexts).length).toBeGreaterThan(30);
    for (const where of Object.keys(specTexts)) expect(where).toMatch(/^(locales\/ro\/[\w-]+|flows\/[\w-]+)\.json#\/\S+$/);
  });

  it('specTextNotes: nothing for a text as the spec wrote it ({product} is the file\'s {{product}}), a note for a changed or missing one', () => {
    const files: Record<string, unknown> = {
      'locales/ro/steps.json': { card: { title: 'Textul schimbat', yes: 'Textul specificației' }, pricing: { submit: 'Vreau {{product}} acum' } },
      'flows/new-pfa.json': { steps: [{ title: 'steps:card.title' }] },
    };
    const notes = specTextNotes(
      {
        'locales/ro/steps.json#/card/title': 'Textul din specificație',
        'locales/ro/steps.json#/card/yes': 'Textul specificației',
        'locales/ro/steps.json#/card/no': 'Un text șters',
        'locales/ro/steps.json#/pricing/submit': 'Vreau {product} acum',
        'flows/new-pfa.json#/steps/0/title': 'steps:card.title',
        'locales/ro/gone.json#/a': 'A',
        'locales/ro/gone.json#/b': 'B',
      },
      (file) => files[file],
    );
    expect(notes).toEqual([
      { level: 'info', file: 'locales/ro/steps.json', path: '#/card/title', message: 'differs from the spec ("Textul din specificație")' },
      { level: 'info', file: 'locales/ro/steps.json', path: '#/card/no', message: 'no text here any more (the spec\'s: "Un text șters")' },
      { level: 'info', file: 'locales/ro/gone.json', path: '#', message: 'cannot be read: its texts were not compared with the spec' },
    ]);
    expect(formatSpecTextNote(notes[0])).toBe('info    locales/ro/steps.json#/card/title: differs from the spec ("Textul din specificație")');
  });

  it('the repository: its texts are the spec\'s, or each that is not is listed', () => {
    const notes = repositorySpecTextNotes();
    // Staff may have changed some: each note names a text of the list, none says the list is broken.
    for (const note of notes) expect(Object.keys(specTexts)).toContain(`${note.file}${note.path}`);
  });

  it('a copy edited as staff would: the changed text is listed, the others are not', () => {
    const dir = copyOfRepository();
    editJson(path.join(dir, 'locales/ro/steps.json'), (steps) => {
      steps.card.yes = 'Da, vreau cardul';
      delete steps.card.no;
    });
    const notes = repositorySpecTextNotes(dir).filter((n) => n.file === 'locales/ro/steps.json' && n.path.startsWith('#/card/'));
    expect(notes.map(formatSpecTextNote)).toEqual([
      `info    locales/ro/steps.json#/card/yes: differs from the spec (${JSON.stringify(specTexts['locales/ro/steps.json#/card/yes'])})`,
      `info    locales/ro/steps.json#/card/no: no text here any more (the spec's: ${JSON.stringify(specTexts['locales/ro/steps.json#/card/no'])})`,
    ]);
    fs.writeFileSync(path.join(dir, SPEC_TEXTS_FILE), '{"texts": ');
    expect(repositorySpecTextNotes(dir)).toEqual([expect.objectContaining({ level: 'info', file: SPEC_TEXTS_FILE, message: expect.stringMatching(/^spec texts not compared: not valid JSON/) })]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('formatProblems: the notes after the problems, before the counts, which they do not change', () => {
    const note = { level: 'info' as const, file: 'locales/ro/steps.json', path: '#/card/yes', message: 'differs from the spec ("Textul specificației")' };
    expect(formatProblems([{ level: 'warning', file: 'flows/new-pfa.json', path: '#/steps/0', message: 'w' }], 2, [note])).toEqual([
      'warning flows/new-pfa.json#/steps/0: w',
      'info    locales/ro/steps.json#/card/yes: differs from the spec ("Textul specificației")',
      'flows:check: 2 flow file(s), 0 error(s), 1 warning(s)',
    ]);
  });
});

describe('npm run flows:check with a text changed', () => {
  it('prints the info line and still exits 0', async () => {
    // The command reads the repository's locale files: run it in a copy of the repository's folders it reads.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-check-'));
    for (const folder of ['content', 'locales', 'flows', 'schemas', 'scripts', 'server', 'src', 'widgets', 'tests/e2e']) fs.cpSync(path.join(root, folder), path.join(dir, folder), { recursive: true });
    // tests/copy.ts: the walker's drivers read their texts through it (the command checks that every widget has one).
    for (const file of ['package.json', 'tsconfig.json', 'tests/copy.ts']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    editJson(path.join(dir, 'locales/ro/steps.json'), (steps) => {
      steps.questionnaire.submit = 'Continuă';
    });
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(path.join(root, 'node_modules/.bin/tsx'), ['scripts/flows-check.ts'], { cwd: dir }, (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }));
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.stdout).toContain(`info    locales/ro/steps.json#/questionnaire/submit: differs from the spec (${JSON.stringify(specTexts['locales/ro/steps.json#/questionnaire/submit'])})`);
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^flows:check: 2 flow file\(s\), 0 error\(s\), 0 warning\(s\)$/);
    expect(run.code).toBe(0);
  }, 120_000);
});
