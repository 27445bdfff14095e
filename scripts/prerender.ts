/**
 * Run by `vite build` (scripts/vite-plugin-route-pages.ts, before the compression), or by hand as
 * `tsx scripts/prerender.ts [--dist dist]` on an existing build: renders each
 * guest page (scripts/guest-pages.ts ROUTE_PAGES) to HTML with react-dom/server through
 * a Vite SSR build of src/prerender.tsx, writes it into `<div id="root">` of `dist/pages/<route>.html`
 * (marked `data-prerendered="<route>"`; the page's guest entry, src/guest/render.tsx, renders over it), then compresses those files again.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { precompressDir } from './vite-plugin-precompress.ts';
import type { Manifest } from 'vite';
import { GUEST_MANIFEST, pageChunks, ROUTE_PAGES, type NextPage } from './guest-pages.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export function withPrerendered(html: string, route: string, markup: string): string {
  const marker = '<div id="root"></div>';
  if (!html.includes(marker)) throw new Error(`prerender: no ${marker} in the page of ${route}`);
  return html.replace(marker, `<div id="root" data-prerendered="${route}">${markup}</div>`);
}

/** The app itself: index.html's entry (src/boot.ts) imports it after the first frame; every page preloads it. */
export const APP_MODULE = 'src/main.tsx';

/** The chunks a step page needs right after the app (its lazy routes and the `steps` copy), with what they import statically. */
export const STEP_PAGE_CHUNKS = ['src/pages/flow/FlowLayout.tsx', 'src/pages/flow/FlowStepsPage.tsx', 'locales/ro/steps.json'];

/**
 * What the app loads on every page once it has rendered (the toasts' view, src/shared/providers.tsx):
 * the app's pages preload it too (1 KiB), else it is asked for after all of the app's scripts, one more
 * round trip on a phone (issue 14).
 */
export const APP_AFTER_RENDER = ['src/shared/toaster-view.tsx'];

/** index.html's entry and the chunks it imports: what every page of the app loads from its own HTML. */
function entryFiles(manifest: Manifest): string[] {
  const entry = manifest['index.html'];
  return entry ? [entry.file, ...(entry.imports ?? []).map((key) => manifest[key].file)] : [];
}

/** `keys` and their static imports, recursively, without the app's entry (index.html loads it anyway). */
export function staticChunks(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || key === 'index.html') return;
    if (!manifest[key]) throw new Error(`prerender: the manifest has no entry ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  const entry = new Set(entryFiles(manifest));
  return [...seen].map((key) => manifest[key].file).filter((file) => !entry.has(file));
}

/**
 * The app's index.html turned into a step page (issue 14, the steps' LCP): the step's shell in
 * `<div id="shell" data-route="…">` above the app's root, which stays `hidden` until the app shows the
 * step itself (src/shared/shell.ts), and a `<link rel="modulepreload">` for each chunk of `files`, so
 * the step's lazy routes load beside the entry instead of after it. The shell also says what the entry
 * asks the API for before the app has loaded (`asks`: `data-open`, `data-registration-type`, and
 * `data-ahead`, the applicant's own data the step's widgets read; src/shared/api/ahead.ts). The shell carries no `data-testid`
 * (the tests find the app's elements, not the shell's copy of them).
 */
export function withStepShell(html: string, route: string, markup: string, files: string[], asks: { open: string; registrationType: number; ahead?: string[] }): string {
  const marker = '<div id="root"></div>';
  if (!html.includes(marker)) throw new Error(`prerender: no ${marker} in the page of ${route}`);
  const shell = markup.replace(/ data-testid="[^"]*"/g, '');
  const ahead = asks.ahead?.length ? ` data-ahead="${asks.ahead.join(' ')}"` : '';
  const attributes = `data-route="${route}" data-open="${asks.open}" data-registration-type="${asks.registrationType}"${ahead}`;
  return withLowPriorityScripts(withModulePreloads(html.replace(marker, `<div id="shell" ${attributes}>${shell}</div>\n    <div id="root" hidden></div>`), files));
}

/**
 * `fetchpriority="low"` on every module script and `modulepreload` of a page that paints from its own
 * HTML (a guest page, `routeHtml` in scripts/vite-plugin-route-pages.ts; a step's shell, `withStepShell`): its
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

/** A `<link rel="modulepreload">` for each chunk of `files` at the end of <head>. */
export function withModulePreloads(html: string, files: string[]): string {
  const preloads = files.map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
  return html.replace(/\n\s*<\/head>/, `\n${preloads}  </head>`);
}

/**
 * The scripts of the page a guest page leads to, which it does not load itself (issue 14: the wait after
 * "Intră în cont" or "Vreau cont Ghișeu"): for `'app'`, what every step page loads (index.html's entry and
 * its preloads, the app, the step page's chunks, the `steps` copy and the toasts' view; not a step's own
 * widgets, which depend on the step); for `'first-step'`, those and `firstSteps` (the modules of the
 * steps the flow files start at); for a guest route, that page's chunks.
 */
export function nextPageFiles(
  next: NextPage,
  own: string[],
  app: Manifest,
  guest: Manifest,
  firstSteps: string[] = [],
): string[] {
  let files: string[];
  if (next === 'app' || next === 'first-step') {
    if (!app['index.html']) throw new Error('prerender: the manifest has no index.html');
    const modules = [APP_MODULE, ...STEP_PAGE_CHUNKS, ...APP_AFTER_RENDER, ...(next === 'first-step' ? firstSteps : [])];
    files = [...entryFiles(app), ...staticChunks(app, modules)];
  } else {
    const page = ROUTE_PAGES.find((p) => p.route === next);
    if (!page) throw new Error(`prerender: ${next} is not a guest page (ROUTE_PAGES)`);
    files = pageChunks(guest, page.entry).map((key) => guest[key].file);
  }
  const loaded = new Set(own);
  return [...new Set(files)].filter((file) => !loaded.has(file));
}

/**
 * The next page's scripts as `<link rel="prefetch">` inside `<template id="next-page">` at the end of
 * <head>: inert in the HTML (a prefetch there would start at once, beside the page's own scripts, and
 * share a phone's bandwidth with them); src/guest/prefetch.ts puts them in <head> once the page has loaded
 * and the browser is idle. `crossorigin`: the mode the next page requests them in (module scripts are
 * CORS requests; Chromium answers same-origin modules from its cache either way).
 */
export function withNextPage(html: string, files: string[]): string {
  if (!files.length) return html;
  const links = files.map((file) => `      <link rel="prefetch" as="script" crossorigin href="/${file}">\n`).join('');
  return html.replace(/\n\s*<\/head>/, `\n    <template id="next-page">\n${links}    </template>\n  </head>`);
}

/** Renders every guest page into its `dist/pages/<route>.html` (written by the route-pages plugin). */
export async function prerenderPages(dist: string): Promise<void> {
  const ssrOut = path.join(root, 'build', 'prerender');
  const build = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--ssr', 'src/prerender.tsx', '--outDir', ssrOut, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (build.status !== 0) throw new Error('prerender: the SSR build of src/prerender.tsx failed');
  const { renderRoute, renderStepShell, stepShellPaths, stepShellModules, stepShellAsks, flowStartPaths } = (await import(`${pathToFileURL(path.join(ssrOut, 'prerender.js')).href}?t=${Date.now()}`)) as {
    renderRoute: (pathname: string) => Promise<string>;
    renderStepShell: (pathname: string) => Promise<string>;
    stepShellPaths: () => string[];
    stepShellModules: (pathname: string) => string[];
    stepShellAsks: (pathname: string) => Promise<{ open: string; registrationType: number; ahead: string[] }>;
    flowStartPaths: () => string[];
  };
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const guestManifest = JSON.parse(fs.readFileSync(path.join(dist, GUEST_MANIFEST), 'utf8')) as Manifest;
  const firstSteps = flowStartPaths().flatMap(stepShellModules);
  for (const { route, entry, next } of ROUTE_PAGES.filter((p) => p.prerender)) {
    const file = path.join(dist, 'pages', `${route.slice(1)}.html`);
    const markup = await renderRoute(route);
    const own = pageChunks(guestManifest, entry).map((key) => guestManifest[key].file);
    const prefetch = next ? nextPageFiles(next, own, manifest, guestManifest, firstSteps) : [];
    fs.writeFileSync(file, withNextPage(withPrerendered(fs.readFileSync(file, 'utf8'), route, markup), prefetch));
  }
  // Every step of both flow files: the app's index.html with the step's shell, preloading the step
  // page's chunks and the step's own (its validator, widgets and fields).
  const indexHtml = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  // index.html (every other page of the app): the app's chunks load beside the small entry, not after it.
  fs.writeFileSync(path.join(dist, 'index.html'), withModulePreloads(indexHtml, staticChunks(manifest, [APP_MODULE, ...APP_AFTER_RENDER])));
  for (const route of stepShellPaths()) {
    const file = path.join(dist, 'pages', `${route.slice(1)}.html`);
    const files = staticChunks(manifest, [APP_MODULE, ...STEP_PAGE_CHUNKS, ...stepShellModules(route), ...APP_AFTER_RENDER]);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, withStepShell(indexHtml, route, await renderStepShell(route), files, await stepShellAsks(route)));
  }
}

async function main(): Promise<number> {
  const distArg = process.argv.indexOf('--dist');
  const dist = path.resolve(root, distArg > 0 ? process.argv[distArg + 1] : 'dist');
  await prerenderPages(dist);
  precompressDir(path.join(dist, 'pages'));
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exitCode = 1;
    },
  );
}
