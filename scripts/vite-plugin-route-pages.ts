import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { prerenderPages } from './prerender.ts';

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

export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

/**
 * Everything a guest page loads before it is usable: its entry, then what it imports, statically or
 * dynamically, recursively, the entry first. The guest pages import everything statically today; a lazy
 * chunk would be preloaded and counted by size:login as well (an upper bound, never an undercount).
 * Not the texts of another language (`locales/en/*.json`, lazy chunks of their own): src/guest/i18n.ts
 * loads them when that language is chosen; the pages are in Romanian until then, and preloading them
 * made every visitor fetch three more files (issue 14).
 */
export function pageChunks(manifest: Record<string, ManifestChunk>, entry: string): string[] {
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

/**
 * index.html of the app turned into a guest page's document: the app's scripts, preloads and style
 * sheets are taken out, and the page's entry goes in with a `<link rel="modulepreload">` for each chunk
 * it loads (`pageChunks`) (a request chain of two for the first paint: the HTML, then every script in parallel),
 * all `fetchpriority="low"`: the page is prerendered, its first paint needs none of them
 * (`withLowPriorityScripts`).
 */
export function routeHtml(indexHtml: string, manifest: Record<string, ManifestChunk>, entry: string): string {
  if (!manifest[entry]) throw new Error(`route-pages: no chunk for ${entry} in the guest manifest`);
  const keys = pageChunks(manifest, entry);
  const files = keys.map((key) => manifest[key].file);
  const css = [...new Set(keys.flatMap((key) => manifest[key].css ?? []))];
  const tags = [
    `    <script type="module" crossorigin src="/${files[0]}"></script>\n`,
    ...files.slice(1).map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`),
    ...css.map((file) => `    <link rel="stylesheet" crossorigin href="/${file}">\n`),
  ].join('');
  const withoutApp = indexHtml
    .replace(/^\s*<script type="module"[^>]*src="\/assets\/[^"]+"[^>]*><\/script>\n/gm, '')
    .replace(/^\s*<link rel="(?:modulepreload|stylesheet)"[^>]*href="\/assets\/[^"]+"[^>]*>\n/gm, '');
  return withoutApp.replace(/\n\s*<\/head>/, `\n${withLowPriorityScripts(tags)}  </head>`);
}

/**
 * `fetchpriority="low"` on every module script and `modulepreload` of a page that paints from its own
 * HTML (a guest page, `routeHtml`; a step's shell, `withStepShell` in scripts/prerender.ts): its
 * first paint needs none of them (src/boot.ts even waits a frame before importing the app), so they
 * are not render-blocking.
 * Chromium otherwise fetches them at High, the priority of a parser-blocking script, and Lighthouse's
 * simulation counts every High script that finished before the first paint in its FCP: 0.7 s or
 * 3.0 s for the same page, by whether the scripts or the paint came first (issue 14). Measured in
 * Chromium with a phone's throttling applied, the step is usable as soon as before (nothing else of
 * the page competes with its scripts). index.html keeps the default: without a shell, the app is
 * the first paint.
 */
export function withLowPriorityScripts(html: string): string {
  return html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*\bfetchpriority=)/g, '<$1 fetchpriority="low"');
}

/**
 * After the app's build: the guest build (vite.guest.config.ts, into the same folder), then
 * `dist/pages/<route>.html` for each guest page, prerendered (scripts/prerender.ts), which
 * server/plugins/static-assets.ts sends for that exact path (the app's index.html for every other one).
 */
export function routePages(pages = ROUTE_PAGES): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'ghiseu:route-pages',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const guest = spawnSync(
          path.join(root, 'node_modules', '.bin', 'vite'),
          ['build', '--config', 'vite.guest.config.ts', '--outDir', outDir, '--logLevel', 'warn'],
          { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
        );
        if (guest.status !== 0) throw new Error('route-pages: the guest build (vite.guest.config.ts) failed');
        const manifest = JSON.parse(fs.readFileSync(path.join(outDir, GUEST_MANIFEST), 'utf8')) as Record<string, ManifestChunk>;
        const indexHtml = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        for (const { route, entry } of pages) {
          const target = path.join(outDir, 'pages', `${route.replace(/^\//, '')}.html`);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, routeHtml(indexHtml, manifest, entry));
        }
        // Each page's HTML as a guest first sees it, inside <div id="root"> (its entry renders over it).
        await prerenderPages(outDir);
      },
    },
  };
}
