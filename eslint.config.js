// ESLint 9 flat config. `npm run lint` (= `eslint .`).
//
// Besides the usual recommended rules it enforces the import direction of DESIGN.md
// ("core <- (engine, widgets, server) <- app") with `no-restricted-imports` per folder.
// tests/core/import-boundaries.test.ts proves that these rules fire.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// ---------------------------------------------------------------------------------------------
// Import boundaries. Every restriction is a regular expression on the import specifier, so a
// package name never matches a same-named local file (gitignore-style `group` patterns would).
// Relative specifiers are matched by the folder they climb into: `../engine/x` from src/core,
// `../../src/engine/x` from server/ or widgets/.
// ---------------------------------------------------------------------------------------------

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A bare package and its subpaths: `react`, `react/jsx-runtime`. */
const packages = (...names) => `^(?:${names.map(escape).join('|')})(?:/.*)?$`;
/** Every package of an npm scope: `@rjsf/core`. */
const scopes = (...names) => `^@(?:${names.map(escape).join('|')})/`;
/** A relative path climbing out of its folder (or a root-absolute one) into one of the given repository folders. */
const intoRepoFolder = (...folders) => `^(?:(?:\\./)?(?:\\.\\./)+|/)(?:${folders.map(escape).join('|')})(?:/|$)`;
/** From inside src/ (`../engine`) or from the repository root (`../../src/engine`). */
const intoSrcFolder = (...folders) =>
  `^(?:(?:\\./)?(?:\\.\\./)+(?:src/)?|/?src/|\\./src/)(?:${folders.map(escape).join('|')})(?:/|$)`;

/** The browser layers through the one path alias (`@/shared/session`), or climbing into them relatively. */
const intoLayer = (...layers) => [
  { regex: `^@/(?:${layers.map(escape).join('|')})(?:/|$)` },
  { regex: intoSrcFolder(...layers) },
];

const nodeBuiltins = [...new Set(builtinModules.map((m) => m.replace(/^node:/, '').split('/')[0]))];

const CORE = 'DESIGN.md: src/core is pure TypeScript imported by browser AND server';
const coreRestrictions = [
  { regex: packages('react', 'react-dom', 'react-router', 'react-i18next'), message: `${CORE}: no React.` },
  { regex: scopes('rjsf'), message: `${CORE}: no rjsf (that belongs to src/engine and widgets/).` },
  { regex: scopes('chakra-ui'), message: `${CORE}: no Chakra UI.` },
  { regex: packages('swr'), message: `${CORE}: no SWR / fetching (that belongs to src/api).` },
  { regex: packages('fastify', 'fastify-plugin'), message: `${CORE}: no Fastify (that belongs to server/).` },
  { regex: scopes('fastify'), message: `${CORE}: no Fastify plugins (they belong to server/).` },
  { regex: packages('drizzle-orm', 'pg'), message: `${CORE}: no database access (that belongs to server/).` },
  { regex: scopes('electric-sql'), message: `${CORE}: no PGlite (that belongs to server/).` },
  { regex: '^node:', message: `${CORE}: no Node built-ins (no Node I/O).` },
  { regex: packages(...nodeBuiltins), message: `${CORE}: no Node built-ins (no Node I/O).` },
  ...intoLayer('app', 'shared', 'engine', 'pages').map((r) => ({
    ...r,
    message: `${CORE}: it may not import the browser app (src/app, src/shared, src/engine, src/pages).`,
  })),
  { regex: intoRepoFolder('widgets'), message: `${CORE}: it may not import widgets/.` },
  { regex: intoRepoFolder('server'), message: `${CORE}: it may not import server/.` },
];

const SERVER = 'DESIGN.md: server/ never imports the browser app';
const serverRestrictions = [
  {
    regex: intoRepoFolder('src/app', 'src/shared', 'src/engine', 'src/pages'),
    message: `${SERVER} (src/app, src/shared, src/engine, src/pages); shared code lives in src/core.`,
  },
  { regex: '^@/', message: `${SERVER}: the @/ alias is the browser's; import src/core relatively.` },
  { regex: intoRepoFolder('widgets'), message: `${SERVER}: it may not import widgets/.` },
  { regex: packages('react', 'react-dom'), message: `${SERVER}: no React on the server.` },
  { regex: scopes('chakra-ui', 'rjsf'), message: `${SERVER}: no Chakra UI / rjsf on the server (validate with schemas/ and Fastify's ajv).` },
];

const WIDGETS = 'DESIGN.md: widgets/ never import app code; services arrive through rjsf formContext';
const widgetRestrictions = [
  ...[{ regex: intoRepoFolder('src/app', 'src/shared', 'src/pages', 'src/engine') }, { regex: '^@/(?:app|shared|pages|engine)(?:/|$)' }].map((r) => ({
    ...r,
    message: `${WIDGETS} (src/app, src/shared, src/pages, src/engine are off limits; src/core is fine).`,
  })),
  { regex: intoRepoFolder('server'), message: `${WIDGETS}: it may not import server/.` },
];

// The browser layers, bottom to top: core <- shared (session, i18n, forms, components, API client)
// <- engine (the step runner) <- pages (screens) <- app (router, guards, root). A layer imports only
// the layers below it.
const LAYERS = 'DESIGN.md: browser layers core <- shared <- engine <- pages <- app';
const sharedRestrictions = [
  ...intoLayer('app', 'engine', 'pages').map((r) => ({ ...r, message: `${LAYERS}: src/shared imports only src/core.` })),
  { regex: intoRepoFolder('widgets'), message: `${LAYERS}: src/shared does not import widgets/.` },
  { regex: intoRepoFolder('server'), message: `${LAYERS}: no server code in the browser.` },
];
const engineRestrictions = [
  ...intoLayer('app', 'pages').map((r) => ({ ...r, message: `${LAYERS}: src/engine imports src/core, src/shared and widgets/ only.` })),
  { regex: intoRepoFolder('server'), message: `${LAYERS}: no server code in the browser.` },
];
const pageRestrictions = [
  ...intoLayer('app').map((r) => ({ ...r, message: `${LAYERS}: a page does not import src/app (the router imports the pages).` })),
  { regex: intoRepoFolder('server'), message: `${LAYERS}: no server code in the browser.` },
];

const boundary = (patterns) => ['error', { patterns }];

// `import('react')` is no ImportDeclaration, so no-restricted-imports misses it; an esquery selector
// catches literal dynamic imports. (esquery regexes cannot contain `/`: scopes match by prefix.)
const dynamicImport = (packageNames, prefixes, message) => ({
  selector: `ImportExpression[source.value=/^(?:(?:${packageNames.map(escape).join('|')})(?![\\w.-])|${prefixes.map(escape).join('|')})/]`,
  message,
});

export default defineConfig(
  {
    ignores: ['dist/', 'build/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'coverage/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  // The browser app and the widgets: browser globals and the rules of hooks.
  {
    files: ['src/**/*.{ts,tsx}', 'widgets/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests poke at loosely typed JSON (flow files, API answers); `any` is allowed there only.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['tests/web/**', 'tests/engine/**', 'tests/widgets/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },

  // ---- Import boundaries (DESIGN.md "Import direction") ----
  {
    files: ['src/core/**/*.{ts,tsx,js}'],
    rules: {
      'no-restricted-imports': boundary(coreRestrictions),
      'no-restricted-syntax': [
        'error',
        dynamicImport(
          ['react', 'react-dom', 'react-router', 'react-i18next', 'swr', 'fastify', 'fastify-plugin', 'drizzle-orm', 'pg', ...nodeBuiltins],
          ['@rjsf', '@chakra-ui', '@fastify', '@electric-sql', 'node:'],
          `${CORE}: no dynamic import of UI, server, database or Node modules.`,
        ),
      ],
    },
  },
  {
    files: ['server/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-imports': boundary(serverRestrictions) },
  },
  {
    files: ['widgets/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-imports': boundary(widgetRestrictions) },
  },
  {
    files: ['src/shared/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-imports': boundary(sharedRestrictions) },
  },
  {
    files: ['src/engine/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-imports': boundary(engineRestrictions) },
  },
  {
    files: ['src/pages/**/*.{ts,tsx,js}'],
    rules: { 'no-restricted-imports': boundary(pageRestrictions) },
  },
);
