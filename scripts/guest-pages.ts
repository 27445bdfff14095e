/**
 * The guest pages and the chunks each loads, from the guest build's manifest: the one list that the
 * route-pages plugin (scripts/vite-plugin-route-pages.ts), the prerender (scripts/prerender.ts), the
 * guest build's chunk rule (vite.guest.config.ts) and `npm run size:login` (scripts/login-bundle-size.ts)
 * read. Its own module so that the plugin, which runs the prerender, and the prerender, which walks the
 * pages, do not import each other.
 */

import type { Manifest } from 'vite';

/**
 * The guest pages (issue 14: the first page every applicant sees). Each gets its own HTML document,
 * prerendered at build time, that loads only its own light entry (`entry`, built by vite.guest.config.ts
 * on Preact, without React Router or i18next) instead of the app. `src` is the page component, the same
 * in both builds. /register/account is prerendered as a visitor who chose a type on /register sees it
 * (src/prerender.tsx); without a type, its entry sends the visitor back there.
 */
export const ROUTE_PAGES: { route: string; src: string; entry: string; prerender: boolean; next?: NextPage }[] = [
  { route: '/login', src: 'src/pages/login/LoginPage.tsx', entry: 'src/guest/pages/login.ts', prerender: true, next: 'app' },
  { route: '/register', src: 'src/pages/register/TypeSelectionPage.tsx', entry: 'src/guest/pages/register.ts', prerender: true, next: '/register/account' },
  { route: '/register/account', src: 'src/pages/register/AccountPage.tsx', entry: 'src/guest/pages/register-account.ts', prerender: true, next: 'first-step' },
  { route: '/password/forgot', src: 'src/pages/ForgotPasswordPage.tsx', entry: 'src/guest/pages/password-forgot.ts', prerender: true },
];

/**
 * Where a guest page's form leads, whose scripts the page fetches into the cache once it is idle
 * (scripts/prerender.ts `withNextPage`, src/guest/prefetch.ts): `'app'`, the app that shows the wizard's
 * steps and the dashboard (signing in: the step is the applicant's own); `'first-step'`, the same and
 * the own chunks of the step each flow file starts at (a new account); or another guest page's route.
 */
export type NextPage = 'app' | 'first-step' | string;

/**
 * The texts of a language other than the default (Romanian, locales/ro, built into the pages): a module
 * id or a manifest key (`locales/en/common.json`). The guest build leaves them out of its shared chunk
 * (vite.guest.config.ts) and the pages do not preload them (`pageChunks`): loaded once chosen.
 */
export const OTHER_LANGUAGE_TEXTS = /(?:^|[\\/])locales[\\/](?!ro[\\/])[^\\/]+[\\/][^\\/]+\.json$/;

/** Where vite.guest.config.ts writes its manifest, inside the output folder. */
export const GUEST_MANIFEST = '.vite/guest-manifest.json';

/**
 * Everything a guest page loads before it is usable: its entry, then what it imports, statically or
 * dynamically, recursively, the entry first. The guest pages import everything statically today; a lazy
 * chunk would be preloaded and counted by size:login as well (an upper bound, never an undercount).
 * Not the texts of another language (`locales/en/*.json`, lazy chunks of their own): src/guest/i18n.ts
 * loads them when that language is chosen; the pages are in Romanian until then, and preloading them
 * made every visitor fetch three more files (issue 14).
 */
export function pageChunks(manifest: Manifest, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`the manifest has no entry ${key}`);
    seen.add(key);
    const lazy = (manifest[key].dynamicImports ?? []).filter((imported) => !OTHER_LANGUAGE_TEXTS.test(imported));
    for (const imported of [...(manifest[key].imports ?? []), ...lazy]) visit(imported);
  };
  visit(entry);
  return [...seen];
}
