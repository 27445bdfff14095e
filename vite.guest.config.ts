import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chakraGlobalFromPage } from './scripts/vite-plugin-chakra-system.ts';
import { compileHints } from './scripts/vite-plugin-compile-hints.ts';
import { OTHER_LANGUAGE_TEXTS } from './scripts/guest-pages.ts';

/**
 * The guest pages' build (issue 14: /login, /register, /register/account, /password/forgot load
 * ≤ 120 KiB of JavaScript gzip). Run by `vite build` after the app's build (scripts/vite-plugin-route-pages.ts)
 * into the same dist/assets/, with its own manifest (dist/.vite/guest-manifest.json). The SAME page
 * components as the app, on a lighter runtime:
 * - React → Preact through preact/compat (~11 KiB instead of React DOM's ~60);
 * - React Router → src/guest/navigation.tsx (document navigation between prerendered pages);
 * - react-i18next → src/guest/i18n.ts (the same Romanian files, no i18next);
 * - Chakra's global CSS taken from the prerendered page, not built again (scripts/vite-plugin-chakra-system.ts;
 *   the app's client build makes the same edits for its step shells).
 * One entry per page (src/guest/pages/*.ts), so each page loads only its own form.
 */
const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export const GUEST_ENTRIES = {
  '/login': 'src/guest/pages/login.ts',
  '/register': 'src/guest/pages/register.ts',
  '/register/account': 'src/guest/pages/register-account.ts',
  '/password/forgot': 'src/guest/pages/password-forgot.ts',
} as const;

/**
 * One chunk, `start`, for everything two guest pages or more share (issue 14, /login and /register LCP
 * ≤ 1.5 s): Preact, Chakra's system and components, emotion, SWR, the layout, the forms' fields. Left to
 * itself, Rolldown cut a chunk per set of pages sharing code: /register loaded 6 files of 1–9 KiB beside
 * the 65 KiB `start` (8 with the English texts, now lazy: scripts/guest-pages.ts `OTHER_LANGUAGE_TEXTS`). On a
 * phone's HTTP/1.1 each file opens a connection and takes its share of the bandwidth, and the large one
 * grows its window into what is left: in Lighthouse's simulation, `start` took 1.06 s beside five small
 * files. Each page now loads two files, its entry and `start`, and the next page finds `start` in the
 * cache. The price: a page loads what only another page uses (/login: /register's radio cards, 9 KiB
 * raw; /register: the password field, 3 KiB), which the next page then has.
 */
const SHARED = [{ name: 'start', minShareCount: 2, test: (id: string) => !OTHER_LANGUAGE_TEXTS.test(id) }];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
      { find: /^react-router$/, replacement: src('guest/navigation.tsx') },
      { find: /^react-i18next$/, replacement: src('guest/i18n.ts') },
      { find: /^@\//, replacement: src('') },
    ],
  },
  plugins: [react(), chakraGlobalFromPage(), compileHints()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: 'hidden',
    manifest: '.vite/guest-manifest.json',
    rolldownOptions: { input: Object.values(GUEST_ENTRIES), output: { codeSplitting: { groups: SHARED } } },
  },
});
