/**
 * Issue 15: no import circles anywhere in server/, src/ or widgets/; issue 34: nor in scripts/
 * (scripts/import-cycles.ts `CHECKED_DIRS`). The checker itself is tested on small projects written
 * to a temporary folder: it must find a circle (also one through `import type`, `export … from` or a
 * path alias) and pass a graph without one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CHECKED_DIRS, importCycles } from '../../scripts/import-cycles';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the repository', () => {
  it('has no import circle in server/, src/, widgets/ or scripts/', () => {
    expect(CHECKED_DIRS).toEqual(['server', 'src', 'widgets', 'scripts']);
    expect(importCycles(root, CHECKED_DIRS)).toEqual([]);
  }, 30_000);
});

describe('the circle check', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function project(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    const all = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', allowImportingTsExtensions: true, noEmit: true, baseUrl: '.', paths: { '@lib/*': ['lib/*'] } },
      }),
      ...files,
    };
    for (const [name, text] of Object.entries(all)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }

  it('finds a circle of three files and names them', () => {
    const at = project({
      'app/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'app/b.ts': "import { c } from './c.ts';\nexport const b = c;\n",
      'app/c.ts': "import { a } from './a';\nexport const c = () => a;\n",
      'app/d.ts': "import { a } from './a';\nexport const d = a;\n",
    });
    expect(importCycles(at, ['app'])).toEqual([['app/a.ts', 'app/b.ts', 'app/c.ts']]);
  });

  it('counts type-only imports, re-exports, dynamic imports and path aliases', () => {
    const at = project({
      'app/model.ts': "import type { Rule } from './rules/index';\nexport interface Row { rule: Rule }\n",
      'app/rules/index.ts': "export * from './one';\n",
      'app/rules/one.ts': "import type { Row } from '../model';\nexport type Rule = (row: Row) => void;\n",
      'app/lazy.ts': "export const load = () => import('@lib/x');\n",
      'lib/x.ts': "import { load } from '../app/lazy';\nexport default load;\n",
    });
    const cycles = importCycles(at, ['app', 'lib']);
    expect(cycles).toHaveLength(2);
    expect(cycles).toEqual(
      expect.arrayContaining([
        ['app/model.ts', 'app/rules/index.ts', 'app/rules/one.ts'],
        ['app/lazy.ts', 'lib/x.ts'],
      ]),
    );
  });

  it('finds a file importing itself', () => {
    const at = project({ 'app/self.ts': "import * as me from './self';\nexport const x = me;\n" });
    expect(importCycles(at, ['app'])).toEqual([['app/self.ts']]);
  });

  it('passes a graph without a circle (shared imports and packages are not circles)', () => {
    const at = project({
      'app/a.ts': "import { c } from './c';\nimport { b } from './b';\nimport ts from 'typescript';\nexport const a = [b, c, ts];\n",
      'app/b.ts': "import { c } from './c';\nexport const b = c;\n",
      'app/c.ts': 'export const c = 1;\n',
    });
    expect(importCycles(at, ['app'])).toEqual([]);
  });
});
