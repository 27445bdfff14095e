import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigEnv } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { copyLocales } from '../../scripts/vite-plugin-copy-locales';

/**
 * The plugin behind COPY_LOCALES_DIR (scripts/vite-plugin-copy-locales.ts): which runs it applies to,
 * and which imports of the repository's texts it points at the other copy. What the app and the tests
 * then read is tests/scripts/copy-locales.test.ts.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'copy-locales-'));
fs.mkdirSync(path.join(copies, 'ro'));
fs.writeFileSync(path.join(copies, 'ro', 'steps.json'), '{}');
afterAll(() => fs.rmSync(copies, { recursive: true, force: true }));

type Apply = (config: object, env: ConfigEnv) => boolean;
type ResolveId = (this: unknown, source: string, importer?: string) => string | null;
/** `''`: the variable unset (`undefined` would take the environment's value). */
const resolveWith = (dir: string) => (source: string, importer?: string) => (copyLocales(dir).resolveId as ResolveId).call({}, source, importer);

describe('the plugin copyLocales', () => {
  it('applies to the tests and the dev server with COPY_LOCALES_DIR set, never to a build', () => {
    const apply = (dir: string, env: ConfigEnv) => (copyLocales(dir).apply as Apply)({}, env);
    expect(apply(copies, { command: 'serve', mode: 'test' })).toBe(true);
    expect(apply(copies, { command: 'serve', mode: 'development' })).toBe(true);
    expect(apply(copies, { command: 'serve', mode: 'production' })).toBe(false);
    expect(apply(copies, { command: 'build', mode: 'production' })).toBe(false);
    expect(apply(copies, { command: 'build', mode: 'test' })).toBe(false);
    expect(apply('', { command: 'serve', mode: 'test' })).toBe(false);
    expect(copyLocales(copies).enforce).toBe('pre');
  });

  it("points an import of the repository's locales/<lng>/<ns>.json at the copy's file", () => {
    const resolve = resolveWith(copies);
    const copy = path.join(copies, 'ro', 'steps.json');
    expect(resolve('../../locales/ro/steps.json', path.join(root, 'src/shared/i18n.ts'))).toBe(copy);
    expect(resolve('../../locales/ro/steps.json', path.join(root, 'tests/engine/render.tsx'))).toBe(copy);
    expect(resolve('../../locales/ro/steps.json', `${path.join(root, 'src/shared/i18n.ts')}?v=1`)).toBe(copy);
  });

  it('leaves the rest: a namespace or language the copy lacks, other folders, other files, no importer, no copy', () => {
    const resolve = resolveWith(copies);
    const importer = path.join(root, 'src/shared/i18n.ts');
    expect(resolve('../../locales/ro/common.json', importer)).toBeNull();
    expect(resolve('../../locales/en/steps.json', importer)).toBeNull();
    expect(resolve('../../locales/ro/nested/steps.json', importer)).toBeNull();
    expect(resolve('/elsewhere/locales/ro/steps.json', importer)).toBeNull();
    expect(resolve('../../flows/new-pfa.json', importer)).toBeNull();
    expect(resolve('./steps.ts', importer)).toBeNull();
    expect(resolve('../../locales/ro/steps.json', undefined)).toBeNull();
    expect(resolveWith('')('../../locales/ro/steps.json', importer)).toBeNull();
  });
});
