/**
 * The broken copies of the flow files (tests/flows/check-broken.test.ts): a temporary copy of the
 * real flows/ and schemas/, one kind of mistake made in it, checked as `npm run flows:check` does
 * (the route table and the walker's drivers of the repository).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { checkFlows, checkInput, readFlowFiles, type CheckInput, type Problem } from '../../server/flows/check';
import { repositoryInput } from '../../scripts/flows-check';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const FLOWS = path.join(root, 'flows');
const SCHEMAS = path.join(root, 'schemas');

export type Json = Record<string, any>;

/** The repository's check input (its route table and walker drivers), read by `useRepository`. */
export let repository: CheckInput;
const folders: string[] = [];

/** Reads the repository's check input before a file's tests and removes its copies after them. */
export function useRepository(): void {
  beforeAll(async () => {
    repository = await repositoryInput();
  }, 60_000);

  afterAll(() => {
    for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
}

/** A temporary copy of flows/ and schemas/ with JSON and text edits. */
export class Copy {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-check-'));
  constructor() {
    folders.push(this.dir);
    fs.cpSync(FLOWS, path.join(this.dir, 'flows'), { recursive: true });
    fs.cpSync(SCHEMAS, path.join(this.dir, 'schemas'), { recursive: true });
  }
  get flowsDir() {
    return path.join(this.dir, 'flows');
  }
  get schemasDir() {
    return path.join(this.dir, 'schemas');
  }
  /** Edits a file of the copy as text (`flows/new-pfa.json`); answers the new text. */
  text(file: string, edit: (text: string) => string): string {
    const full = path.join(this.dir, file);
    const next = edit(fs.readFileSync(full, 'utf8'));
    fs.writeFileSync(full, next);
    return next;
  }
  json(file: string, edit: (value: Json) => void): void {
    this.text(file, (text) => {
      const value = JSON.parse(text) as Json;
      edit(value);
      return JSON.stringify(value, null, 2);
    });
  }
  flow(name: string, edit: (flow: Json, at: Where) => void): void {
    this.json(`flows/${name}`, (flow) => edit(flow, where(flow)));
  }
  /** The check over the copy, as the command runs it (labels `flows/`, `schemas/` as in the repository). */
  check(overrides: Partial<CheckInput> = {}): Problem[] {
    const input = checkInput(readFlowFiles(this.flowsDir, 'flows/'), repository.routeExists, { schemasDir: this.schemasDir, driverNames: repository.driverNames });
    return checkFlows({ ...input, ...overrides });
  }
}

/** Indexes of a flow file's steps and variants by id, so the cases follow the real files. */
export interface Where {
  step(id: string): number;
  variant(id: string): number;
  stepOf(id: string): Json;
  patch(variant: string, step: string): Json;
}

function where(flow: Json): Where {
  const step = (id: string) => {
    const i = (flow.steps as Json[]).findIndex((s) => s.id === id);
    if (i < 0) throw new Error(`no step ${id}`);
    return i;
  };
  const variant = (id: string) => {
    const i = (flow.variants as Json[]).findIndex((v) => v.id === id);
    if (i < 0) throw new Error(`no variant ${id}`);
    return i;
  };
  return { step, variant, stepOf: (id) => flow.steps[step(id)], patch: (v, s) => flow.variants[variant(v)].steps[s] };
}

export interface Expected {
  file: string;
  path: string;
  /** The message, whole (a string) or its stable part (a RegExp). */
  message: string | RegExp;
  level?: Problem['level'];
}

export interface Case {
  name: string;
  /** Makes the mistake in the copy; answers the problems that must be reported. */
  make(copy: Copy): Expected[];
  /** Further assertions on everything reported. */
  also?(problems: Problem[]): void;
}

export const NEW = 'flows/new-pfa.json';
export const EXISTING = 'flows/existing-pfa.json';
export const p6 = 'requesting-company-step-6';

/** The credit partner's patch of step 6 with `uiSchema` written `uischema` (and `more` edits); answers the variant's index. */
export function misspellUiSchema(copy: Copy, more: (patch: Json) => void = () => undefined): number {
  let v = 0;
  copy.flow('new-pfa.json', (flow, at) => {
    v = at.variant('icredit');
    const patch = at.patch('icredit', p6);
    patch.uischema = patch.uiSchema;
    delete patch.uiSchema;
    more(patch);
  });
  return v;
}

/** Makes the case's mistake in a new copy and checks that each expected problem is reported, at its file and pointer. */
export function checkCase(c: Case): void {
  const copy = new Copy();
  const expected = c.make(copy);
  const problems = copy.check();
  for (const e of expected) {
    const at = problems.filter((p) => p.file === e.file && p.path === e.path);
    expect(at.map((p) => p.message), `${e.file}${e.path}`).toContainEqual(typeof e.message === 'string' ? e.message : expect.stringMatching(e.message));
    if (e.level) expect(at.find((p) => (typeof e.message === 'string' ? p.message === e.message : e.message.test(p.message)))?.level).toBe(e.level);
  }
  expect(problems.filter((p) => p.level === 'error').length).toBeGreaterThanOrEqual(expected.length);
  // Never the checker's own failure.
  expect(problems.filter((p) => p.message.startsWith('the check stopped'))).toEqual([]);
  c.also?.(problems);
}
