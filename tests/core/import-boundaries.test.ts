/**
 * The import direction of DESIGN.md ("core <- (engine, widgets, server) <- app", and in the browser
 * core <- shared <- engine <- pages <- app) is enforced by
 * `no-restricted-imports` overrides in eslint.config.js. These tests lint small snippets placed at
 * fake paths and check that each boundary fires, and that allowed imports pass.
 */
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.config.js' });
  // The first lint loads the config, the plugins and the TypeScript parser (seconds on a busy
  // machine): done here, under the hook's limit, not inside the first test's 5 s.
  await eslint.lintText('export {};\n', { filePath: 'src/core/warm-up.ts', warnIgnored: true });
}, 60_000);

/** The boundary messages ESLint reports for `code` saved at `filePath` (relative to the repository). */
async function boundaryMessages(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath, warnIgnored: true });
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `${filePath} did not parse`).toEqual([]);
  return result.messages.filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId));
}

const importing = (specifier: string) => `import x from '${specifier}';\nexport default x;\n`;

async function expectBlocked(filePath: string, code: string) {
  const messages = await boundaryMessages(filePath, code);
  expect(messages.length, `expected a boundary error for ${filePath}:\n${code}`).toBeGreaterThan(0);
  expect(messages[0].message).toContain('DESIGN.md');
  expect(messages[0].severity).toBe(2);
}

async function expectAllowed(filePath: string, code: string) {
  expect(await boundaryMessages(filePath, code), `expected no boundary error for ${filePath}:\n${code}`).toEqual([]);
}

describe('src/core is pure TypeScript', () => {
  it.each([
    'react',
    'react/jsx-runtime',
    'react-dom/client',
    'react-router',
    '@rjsf/core',
    '@rjsf/validator-ajv8',
    '@chakra-ui/react',
    'swr',
    'swr/mutation',
    'fastify',
    '@fastify/static',
    'drizzle-orm',
    'drizzle-orm/pg-core',
    'pg',
    '@electric-sql/pglite',
    'node:fs',
    'node:path',
    'node:crypto',
    'fs',
    'fs/promises',
    'path',
    '../app/router',
    '../engine/Wizard',
    '../shared/api/client',
    '../shared/session',
    '@/shared/session',
    '@/app/routes',
    '../pages/Login',
    '../../src/engine/flows',
    '../../widgets/registry',
    '../../server/app',
  ])('src/core/x.ts may not import %s', async (specifier) => {
    await expectBlocked('src/core/x.ts', importing(specifier));
  });

  it.each(['../../engine/flows', '../../app', '../../../widgets/id-capture/IdCapture', '../../../server/db/schema'])(
    'src/core/flow/deep.ts may not import %s',
    async (specifier) => {
      await expectBlocked('src/core/flow/deep.ts', importing(specifier));
    },
  );

  it('blocks type-only imports, re-exports and literal dynamic imports too', async () => {
    await expectBlocked('src/core/x.ts', `import type { ReactNode } from 'react';\nexport type N = ReactNode;\n`);
    await expectBlocked('src/core/x.ts', `export { useState } from 'react';\n`);
    await expectBlocked('src/core/x.ts', `export * from '../engine/api';\n`);
    await expectBlocked('src/core/x.ts', `export const load = () => import('node:fs');\n`);
    await expectBlocked('src/core/x.ts', `export const load = () => import('@chakra-ui/react');\n`);
  });

  it.each([
    ['src/core/x.ts', './registration'],
    ['src/core/x.ts', './flow/types'],
    ['src/core/x.ts', './api-types'],
    ['src/core/x.ts', './path'],
    ['src/core/x.ts', './pg-helpers'],
    ['src/core/flow/deep.ts', '../session'],
    ['src/core/flow/deep.ts', '../api-types'],
    ['src/core/flow/deep.ts', './pointer'],
    ['src/core/x.ts', 'i18next'],
  ])('%s may import %s', async (filePath, specifier) => {
    await expectAllowed(filePath, importing(specifier));
  });
});

describe('server/ never imports the browser app', () => {
  it.each([
    ['server/app.ts', '../src/app/router'],
    ['server/routes/x.ts', '../../src/engine/flows'],
    ['server/routes/x.ts', '../../src/shared/api/client'],
    ['server/routes/x.ts', '@/shared/session'],
    ['server/routes/x.ts', '@/core/flow'],
    ['server/routes/x.ts', '../../src/pages/Login'],
    ['server/routes/x.ts', '../../widgets/registry'],
    ['server/routes/x.ts', 'react'],
    ['server/routes/x.ts', 'react-dom/server'],
    ['server/routes/x.ts', '@chakra-ui/react'],
    ['server/routes/x.ts', '@rjsf/utils'],
    ['server/routes/x.ts', '@rjsf/validator-ajv8'],
  ])('%s may not import %s', async (filePath, specifier) => {
    await expectBlocked(filePath, importing(specifier));
  });

  it.each([
    ['server/routes/x.ts', '../../src/core/flow'],
    ['server/routes/x.ts', '../../src/core/api-types'],
    ['server/routes/x.ts', '../db/schema'],
    ['server/routes/x.ts', 'fastify'],
    ['server/routes/x.ts', 'drizzle-orm'],
    ['server/routes/x.ts', 'node:fs'],
    ['server/app.ts', './routes/public'],
  ])('%s may import %s', async (filePath, specifier) => {
    await expectAllowed(filePath, importing(specifier));
  });
});

describe('widgets/ never import app code', () => {
  it.each([
    '../../src/app/router',
    '../../src/shared/api/client',
    '../../src/shared/session',
    '@/shared/session',
    '@/engine/Wizard',
    '../../src/pages/Login',
    '../../src/engine/api',
    '../../server/db/schema',
  ])('widgets/x/XWidget.tsx may not import %s', async (specifier) => {
    await expectBlocked('widgets/x/XWidget.tsx', importing(specifier));
  });

  it.each(['react', '@chakra-ui/react', '@rjsf/utils', '../../src/core/registration', '@/core/registration', '../shared/useOptions', '../types'])(
    'widgets/x/XWidget.tsx may import %s',
    async (specifier) => {
      await expectAllowed('widgets/x/XWidget.tsx', importing(specifier));
    },
  );
});

describe('the browser layers: core <- shared <- engine <- pages <- app', () => {
  it.each([
    ['src/shared/x.ts', '@/engine/Wizard'],
    ['src/shared/x.ts', '@/pages/login/LoginPage'],
    ['src/shared/x.ts', '@/app/routes'],
    ['src/shared/api/x.ts', '../../app/routes'],
    ['src/shared/x.ts', '../../widgets/registry'],
    ['src/engine/x.tsx', '@/app/routes'],
    ['src/engine/x.tsx', '@/pages/flow/FlowStepsPage'],
    ['src/engine/x.tsx', '../pages/flow/FlowStepsPage'],
    ['src/pages/login/x.tsx', '@/app/guards'],
    ['src/pages/x.tsx', '../app/routes'],
    ['src/pages/x.tsx', '../../server/app'],
  ])('%s may not import %s', async (filePath, specifier) => {
    await expectBlocked(filePath, importing(specifier));
  });

  it.each([
    ['src/shared/x.ts', '@/core/session'],
    ['src/shared/x.ts', './api/client'],
    ['src/engine/x.tsx', '@/shared/session'],
    ['src/engine/x.tsx', '../../widgets/registry'],
    ['src/pages/x.tsx', '@/engine/Wizard'],
    ['src/pages/x.tsx', '@/shared/api/client'],
    ['src/app/x.tsx', '@/pages/login/LoginPage'],
  ])('%s may import %s', async (filePath, specifier) => {
    await expectAllowed(filePath, importing(specifier));
  });
});

describe('outside the restricted folders', () => {
  it('the browser app may import React, rjsf and widgets', async () => {
    await expectAllowed('src/engine/x.tsx', importing('react'));
    await expectAllowed('src/engine/x.tsx', importing('@rjsf/core'));
    await expectAllowed('src/app/x.tsx', importing('../../widgets/registry'));
  });
});

describe('the repository itself', () => {
  it('respects the boundaries in src, server and widgets', async () => {
    const results = await eslint.lintFiles(['src', 'server', 'widgets']);
    const violations = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId !== null && BOUNDARY_RULES.has(m.ruleId))
        .map((m) => `${r.filePath.slice(root.length)}:${m.line} ${m.message}`),
    );
    expect(violations).toEqual([]);
    // ESLint with type information over every file of src, server and widgets: ~20 s on a quiet
    // 2-core machine, over 60 s with other builds running (the helpers' runs hit 60 s).
  }, 240_000);
});
