/**
 * Issue 33: every mistake in the flow files is caught, with its file and the JSON pointer where it is
 * written, in one run, never as a stack trace. Each case copies the real flows/ and schemas/ to a
 * temporary folder, makes one kind of mistake in the copy and checks it as the command does (the
 * route table and the walker's drivers of the repository), so the cases follow the real files
 * (tests/flows/broken-copy.ts; the cases: tests/flows/broken-cases.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFlows } from '../../server/flows/check';
import { flowErrorsAtStart } from '../../server/flows/startup-check';
import { cases } from './broken-cases';
import { Copy, FLOWS, NEW, checkCase, misspellUiSchema, p6, repository, root, useRepository, type Json } from './broken-copy';

useRepository();

describe('flows:check on broken copies of the real flow files', () => {
  it('finds no problem in an untouched copy', () => {
    expect(new Copy().check()).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => checkCase(c));

  it('says so, once, when the meta-schema itself cannot be used', () => {
    expect(new Copy().check({ metaSchema: {} })).toEqual([
      expect.objectContaining({ level: 'error', file: 'flows/flow.schema.json', path: '#', message: expect.stringMatching(/^the meta-schema cannot be used: /) }),
    ]);
  });

  it('needs a walker driver for every widget of a ready step in the command only (the server has no tests folder)', () => {
    const copy = new Copy();
    const i = (JSON.parse(fs.readFileSync(path.join(FLOWS, 'new-pfa.json'), 'utf8')) as Json).steps.findIndex((s: Json) => s.id === 'requesting-company-step-8');
    const drivers = new Set([...(repository.driverNames ?? [])].filter((n) => n !== 'cardChoice'));
    expect(copy.check({ driverNames: drivers })).toContainEqual({
      level: 'error',
      file: NEW,
      path: `#/steps/${i}/uiSchema/ghiseu_card_requested/ui:widget`,
      message: '"cardChoice" has no driver in tests/e2e/drivers.ts (the flow walker cannot fill this step)',
    });
    expect(copy.check({ driverNames: undefined })).toEqual([]);
    expect(repository.driverNames?.has('cardChoice')).toBe(true);
  });
});

describe('the server entry refuses flow files with mistakes (server/flows/startup-check.ts)', () => {
  const app = { hasRoute: ({ method, url }: { method: string; url: string }) => repository.routeExists(method as 'GET' | 'POST', url) };

  it('has nothing against the repository\'s flow files', () => {
    expect(flowErrorsAtStart(app)).toEqual([]);
  });

  it('names each error of a folder with a broken variant patch, at its file and pointer (warnings are not refused)', () => {
    const copy = new Copy();
    const v = misspellUiSchema(copy, (patch) => (patch.guarded = 'no'));
    const errors = flowErrorsAtStart(app, copy.flowsDir);
    expect(errors).toContain(`${NEW}#/variants/${v}/steps/${p6}/uischema: unknown property "uischema" (did you mean "uiSchema"?)`);
    expect(errors.some((line) => line.startsWith(`${NEW}#/variants/${v}/steps/${p6}/guarded: `))).toBe(true);
  });
});

describe('the repository', () => {
  it('has flow files with no error and no warning, the walker drivers checked', () => {
    expect(repository.driverNames?.size).toBeGreaterThan(0);
    expect(checkFlows(repository)).toEqual([]);
  });
});

describe('npm run flows:check (the command)', () => {
  it('prints one line per problem with file and pointer, the counts, and exits 1: never a stack trace', async () => {
    const copy = new Copy();
    copy.flow('new-pfa.json', (flow, at) => {
      at.patch('icredit', p6).guarded = 'no';
      flow.variants[at.variant('courier-partner')].when = { partner: 'curierr' };
    });
    copy.text('schemas/card.json', (t) => t.replace('{', '{,'));
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(path.join(root, 'node_modules/.bin/tsx'), ['scripts/flows-check.ts', '--flows', copy.flowsDir, '--schemas', copy.schemasDir], { cwd: root }, (error, stdout, stderr) =>
        resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr }),
      );
    });
    // Not the texts that differ from the spec's (information, content/spec-texts.json): staff may change those.
    const lines = run.stdout.trim().split('\n').filter((l) => !l.startsWith('info '));
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(0, 3)) expect(line).toMatch(/^error {3}\S+\.json#\S*: \S/);
    expect(lines.some((l) => l.startsWith(`error   ${copy.flowsDir}/new-pfa.json#/variants/`) && l.endsWith(`/steps/${p6}/guarded: must be boolean or null`))).toBe(true);
    expect(lines.some((l) => l.includes('/when/partner: partner "curierr" is not a partner'))).toBe(true);
    expect(lines.some((l) => l.startsWith(`error   ${copy.schemasDir}/card.json#: not valid JSON (line 1, column 2)`))).toBe(true);
    expect(lines[3]).toBe('flows:check: 2 flow file(s), 3 error(s), 0 warning(s)');
  }, 60_000);
});
