import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { stepValidators } from './scripts/vite-plugin-step-validators.ts';
import { precompress } from './scripts/vite-plugin-precompress.ts';
import { chakraGlobalFromPage, chakraSystemForRjsf } from './scripts/vite-plugin-chakra-system.ts';
import { routePages } from './scripts/vite-plugin-route-pages.ts';
import { rjsfMarkdownOnlyWhenUsed } from './scripts/vite-plugin-rjsf-markdown.ts';

/**
 * The browser build's Chakra builds its global CSS only when it renders it: a step page's prerendered
 * shell carries that CSS already, and the app then neither builds nor serializes it again
 * (src/shared/shell.ts `adoptShellGlobalStyles`; issue 14, the steps' TBT). Not in the SSR prerender
 * build or the tests, where Chakra is not bundled.
 */
function chakraGlobalInStepShells(): Plugin {
  return { ...chakraGlobalFromPage(), apply: (_config, env) => env.command === 'build' && !env.isSsrBuild };
}

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3001';

export default defineConfig({
  // One alias for the browser layers (src/shared, src/engine, src/pages, src/app): `@/shared/session`, not `../../app/session`.
  resolve: { alias: { '@/': fileURLToPath(new URL('./src/', import.meta.url)) } },
  plugins: [react(), stepValidators(), chakraSystemForRjsf(), chakraGlobalInStepShells(), rjsfMarkdownOnlyWhenUsed(), routePages(), precompress()],
  build: {
    outDir: 'dist',
    // Maps without a sourceMappingURL comment, moved to build/sourcemaps/ (never served) by precompress().
    sourcemap: 'hidden',
    manifest: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: {
      '/api': apiTarget,
      '/dev/outbox': apiTarget,
      '/sso': apiTarget,
      // The terms and privacy pages (server/routes/legal.ts).
      '/termeni': apiTarget,
      '/confidentialitate': apiTarget,
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/core/**/*.test.ts', 'tests/flows/**/*.test.ts', 'tests/scripts/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.tsx', 'tests/engine/**/*.test.tsx', 'tests/widgets/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/web/setup.ts'],
          // Well above Testing Library's 15 s wait (tests/web/setup.ts): a test makes several waits, and
          // on a loaded machine a lazy page's first load or a whole wizard step is slow.
          testTimeout: 90000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/server/global-setup.ts'],
          // One database per worker: files in a worker share it (see tests/server/helpers.ts).
          isolate: false,
          testTimeout: 20000,
          hookTimeout: 60000,
        },
      },
    ],
  },
});
