import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { stepValidators } from './scripts/vite-plugin-step-validators.ts';
import { precompress } from './scripts/vite-plugin-precompress.ts';
import { chakraGlobalInStepShells, chakraSystemForRjsf } from './scripts/vite-plugin-chakra-system.ts';
import { routePages } from './scripts/vite-plugin-route-pages.ts';
import { rjsfMarkdownOnlyWhenUsed } from './scripts/vite-plugin-rjsf-markdown.ts';
import { copyLocales } from './scripts/vite-plugin-copy-locales.ts';
import { flowsDir } from './scripts/vite-plugin-flows-dir.ts';

/**
 * Fewer, larger chunks for the app (issue 14, the steps' LCP). Left to itself, Rolldown cut the app into
 * ~160 chunks, most of them a few hundred bytes (a Chakra component, an anatomy, a hook shared by two
 * lazy routes): a step page loaded 53–74 files, and on a phone's connection (HTTP/1.1, six connections,
 * a round trip each) their requests, not their bytes, made the wait. Two groups:
 * - `framework`: React, React Router, i18next, emotion, Chakra with Ark and Zag: what every page of
 *   the app renders with, one file (brotli compresses it better than its parts). Not in it
 *   (`ONLY_SOME_PAGES`): the combobox and the dialog with what only they use (Zag's popper and focus
 *   trap, Floating UI; what the toasts use too stays). Only the address and CAEN pickers (the
 *   identity, mailing and overview steps), the overview's office popup and a staff page draw them,
 *   and in `framework` they were ~25 KiB gzip of every other step's scripts. Rolldown leaves them to
 *   the chunks of the widgets that import them (`ServerCombobox`, `dialog`);
 * - `app`: the app's own shared modules (src/shared, src/core, widgets/shared) used by two routes or
 *   more, but for widgets/shared/ServerCombobox: a group takes its modules' dependencies along, so with
 *   it `app` took the combobox back to every page; and for widgets/shared/afterPaint and
 *   src/shared/api/ahead, which the page's entry (src/boot.ts) imports: in `app`, the entry would wait for the framework.
 * rjsf, the validators, the widgets and the pages stay lazy chunks of their own. The guest pages are
 * another build (vite.guest.config.ts) and keep their own budget (`npm run size:login`).
 */
const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@emotion|stylis|@chakra-ui|@pandacss|@ark-ui|@zag-js|@floating-ui|use-sync-external-store|hoist-non-react-statics|react-is)[\\/]/;
const ONLY_SOME_PAGES = /node_modules[\\/](@zag-js[\\/](combobox|dialog|focus-trap|popper|dismissable|interact-outside|aria-hidden|remove-scroll|collection)|@floating-ui|@ark-ui[\\/]react[\\/]dist[\\/]components[\\/](combobox|dialog|collection)|@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]components[\\/](combobox|dialog))[\\/]/;
const APP = /[\\/]src[\\/](shared|core)[\\/]|[\\/]widgets[\\/]shared[\\/]/;
const CHUNK_GROUPS = [
  {
    name: 'framework',
    priority: 10,
    test: (id: string) => FRAMEWORK.test(id) && !ONLY_SOME_PAGES.test(id),
  },
  { name: 'app', priority: 5, minShareCount: 2, test: (id: string) => APP.test(id) && !/[\\/](widgets[\\/]shared[\\/](ServerCombobox|afterPaint)|src[\\/]shared[\\/]api[\\/]ahead)\./.test(id) },
];

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3001';

export default defineConfig({
  // One alias for the browser layers (src/shared, src/engine, src/pages, src/app): `@/shared/session`, not `../../app/session`.
  resolve: { alias: { '@/': fileURLToPath(new URL('./src/', import.meta.url)) } },
  // chakraGlobalInStepShells: the same edits of Chakra as the guest build's (both builds start from a
  // prerendered page that carries Chakra's global CSS: scripts/vite-plugin-chakra-system.ts).
  plugins: [copyLocales(), flowsDir(), react(), stepValidators(), chakraSystemForRjsf(), chakraGlobalInStepShells(), rjsfMarkdownOnlyWhenUsed(), routePages(), precompress()],
  build: {
    outDir: 'dist',
    // Maps without a sourceMappingURL comment, moved to build/sourcemaps/ (never served) by precompress().
    sourcemap: 'hidden',
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
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
