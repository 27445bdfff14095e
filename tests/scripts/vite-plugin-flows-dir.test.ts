import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigEnv } from 'vite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { flowsDir } from '../../scripts/vite-plugin-flows-dir';

/**
 * The plugin behind E2E_FLOWS_DIR (scripts/vite-plugin-flows-dir.ts): the flow walker's other flow
 * files in place of flows/, and never in a production build.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const copies = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-dir-'));
fs.writeFileSync(path.join(copies, 'new-pfa.json'), '{}');
afterAll(() => fs.rmSync(copies, { recursive: true, force: true }));

type Config = (this: unknown, config: object, env: ConfigEnv) => void;
type ResolveId = (this: unknown, source: string, importer?: string) => string | null;
/** `''`: the variable unset (`undefined` would take the environment's value). */
const resolveWith = (dir: string) => (source: string, importer?: string) => (flowsDir(dir).resolveId as ResolveId).call({}, source, importer);

describe('the plugin flowsDir', () => {
  it('applies only with E2E_FLOWS_DIR set, before Vite resolves the file itself', () => {
    expect((flowsDir(copies).apply as () => boolean)()).toBe(true);
    expect((flowsDir('').apply as () => boolean)()).toBe(false);
    expect(flowsDir(copies).enforce).toBe('pre');
  });

  it('stops a production build, but lets a build in mode test, its SSR prerender and the dev server run (and says so)', () => {
    const config = (env: ConfigEnv) => (flowsDir(copies).config as Config).call({}, {}, env);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(() => config({ command: 'build', mode: 'production', isSsrBuild: false })).toThrow(`E2E_FLOWS_DIR is set (${copies})`);
      expect(() => config({ command: 'build', mode: 'test', isSsrBuild: false })).not.toThrow();
      expect(() => config({ command: 'build', mode: 'production', isSsrBuild: true })).not.toThrow();
      expect(() => config({ command: 'serve', mode: 'development' })).not.toThrow();
      expect(log).toHaveBeenCalledWith(`[flows] the build bundles the flow files of ${copies} (E2E_FLOWS_DIR) instead of flows/`);
    } finally {
      log.mockRestore();
    }
  });

  it("points an import of flows/<name>.json at the other folder's file of that name", () => {
    const resolve = resolveWith(copies);
    expect(resolve('../../flows/new-pfa.json', path.join(root, 'src/engine/flows.ts'))).toBe(path.join(copies, 'new-pfa.json'));
    expect(resolve('../../flows/new-pfa.json', `${path.join(root, 'src/engine/flows.ts')}?t=1`)).toBe(path.join(copies, 'new-pfa.json'));
  });

  it('leaves the rest: a file the folder lacks, other folders, other files, no importer, no folder', () => {
    const resolve = resolveWith(copies);
    const importer = path.join(root, 'src/engine/flows.ts');
    expect(resolve('../../flows/existing-pfa.json', importer)).toBeNull();
    expect(resolve('../../flows/sub/new-pfa.json', importer)).toBeNull();
    expect(resolve('../../schemas/card.json', importer)).toBeNull();
    expect(resolve('./flows.ts', importer)).toBeNull();
    expect(resolve('../../flows/new-pfa.json', undefined)).toBeNull();
    expect(resolveWith('')('../../flows/new-pfa.json', importer)).toBeNull();
  });
});
