import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { chakraSystemForRjsf } from '../../scripts/vite-plugin-chakra-system';

/**
 * @rjsf/chakra-ui gets the app's Chakra system through src/shared/chakra-rjsf-shim.ts
 * (scripts/vite-plugin-chakra-system.ts `chakraSystemForRjsf`): only its own imports of
 * `@chakra-ui/react` are pointed there, and the shim gives it every name it imports.
 */
type ResolveId = (this: unknown, source: string, importer?: string) => Promise<unknown>;
const root = '/app';
const shim = path.resolve(root, 'src/shared/chakra-rjsf-shim.ts');

/** What the plugin makes of `import … from source` in `importer`, with Vite's resolver stubbed. */
async function resolveFrom(source: string, importer?: string) {
  const resolve = vi.fn(async (id: string) => ({ id }));
  const result = await (chakraSystemForRjsf(root).resolveId as ResolveId).call({ resolve }, source, importer);
  return { result, resolve };
}

/** The names each module of the installed @rjsf/chakra-ui imports from `@chakra-ui/react`. */
function rjsfChakraImports(): string[] {
  const dir = path.resolve('node_modules/@rjsf/chakra-ui/lib');
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.js'));
  const names = new Set<string>();
  for (const file of files) {
    for (const [, list] of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const item of list.split(',')) if (item.trim()) names.add(item.trim().split(/\s+as\s+/)[0]);
    }
  }
  return [...names].sort();
}

describe('the plugin chakraSystemForRjsf', () => {
  it("points @rjsf/chakra-ui's imports of @chakra-ui/react at the shim (POSIX or Windows paths)", async () => {
    for (const importer of ['/app/node_modules/@rjsf/chakra-ui/lib/Form/Form.js', 'C:\\app\\node_modules\\@rjsf\\chakra-ui\\lib\\Form\\Form.js']) {
      const { result, resolve } = await resolveFrom('@chakra-ui/react', importer);
      expect(result).toEqual({ id: shim });
      expect(resolve).toHaveBeenCalledWith(shim, importer, { skipSelf: true });
    }
  });

  it('leaves every other import alone: the app, Chakra itself, other rjsf packages, other specifiers', async () => {
    const cases: [string, string | undefined][] = [
      ['@chakra-ui/react', '/app/src/shared/theme.ts'],
      ['@chakra-ui/react', '/app/src/shared/chakra-rjsf-shim.ts'],
      ['@chakra-ui/react', '/app/node_modules/@rjsf/core/lib/index.js'],
      ['@chakra-ui/react', '/app/node_modules/@chakra-ui/react/dist/esm/index.js'],
      ['@chakra-ui/react', undefined],
      ['@chakra-ui/react/theme', '/app/node_modules/@rjsf/chakra-ui/lib/index.js'],
      ['@rjsf/utils', '/app/node_modules/@rjsf/chakra-ui/lib/index.js'],
    ];
    for (const [source, importer] of cases) {
      const { result, resolve } = await resolveFrom(source, importer);
      expect(result, `${source} from ${importer}`).toBeNull();
      expect(resolve).not.toHaveBeenCalled();
    }
  });

  it('runs before Vite resolves the package itself', () => {
    expect(chakraSystemForRjsf(root).enforce).toBe('pre');
  });
});

describe('the shim', () => {
  it('exists where the plugin points', () => {
    expect(fs.existsSync(path.resolve('src/shared/chakra-rjsf-shim.ts'))).toBe(true);
  });

  it("gives @rjsf/chakra-ui every name it imports, with the app's system as `defaultSystem`", async () => {
    const shimModule = (await import('../../src/shared/chakra-rjsf-shim')) as Record<string, unknown>;
    const { system } = await import('../../src/shared/theme');
    const chakra = (await import('@chakra-ui/react')) as Record<string, unknown>;
    const names = rjsfChakraImports();
    expect(names).toContain('defaultSystem');
    expect(names.filter((name) => shimModule[name] === undefined)).toEqual([]);
    expect(shimModule.defaultSystem).toBe(system);
    expect(shimModule.defaultSystem).not.toBe(chakra.defaultSystem);
    expect(shimModule.Box).toBe(chakra.Box);
  }, 60_000);
});
