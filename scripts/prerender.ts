/**
 * Run by `vite build` (scripts/vite-plugin-route-pages.ts, before the compression), or by hand as
 * `tsx scripts/prerender.ts [--dist dist]` on an existing build: renders each
 * guest page (scripts/vite-plugin-route-pages.ts ROUTE_PAGES) to HTML with react-dom/server through
 * a Vite SSR build of src/prerender.tsx, writes it into `<div id="root">` of `dist/pages/<route>.html`
 * (marked `data-prerendered="<route>"`; the page's guest entry, src/guest/render.tsx, renders over it), then compresses those files again.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { precompressDir } from './vite-plugin-precompress.ts';
import { ROUTE_PAGES, type ManifestChunk } from './vite-plugin-route-pages.ts';

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

/** `keys` and their static imports, recursively, without the app's entry (index.html loads it anyway). */
export function staticChunks(manifest: Record<string, ManifestChunk>, keys: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || key === 'index.html') return;
    if (!manifest[key]) throw new Error(`prerender: the manifest has no entry ${key}`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  const entryFiles = new Set([manifest['index.html']?.file, ...(manifest['index.html']?.imports ?? []).map((k) => manifest[k]?.file)]);
  return [...seen].map((key) => manifest[key].file).filter((file) => !entryFiles.has(file));
}

/**
 * The app's index.html turned into a step page (issue 14, the steps' LCP): the step's shell in
 * `<div id="shell" data-route="…">` above the app's root, which stays `hidden` until the app shows the
 * step itself (src/shared/shell.ts), and a `<link rel="modulepreload">` for each chunk of `files`, so
 * the step's lazy routes load beside the entry instead of after it. The shell carries no `data-testid`
 * (the tests find the app's elements, not the shell's copy of them).
 */
export function withStepShell(html: string, route: string, markup: string, files: string[]): string {
  const marker = '<div id="root"></div>';
  if (!html.includes(marker)) throw new Error(`prerender: no ${marker} in the page of ${route}`);
  const shell = markup.replace(/ data-testid="[^"]*"/g, '');
  return withModulePreloads(html.replace(marker, `<div id="shell" data-route="${route}">${shell}</div>\n    <div id="root" hidden></div>`), files);
}

/** A `<link rel="modulepreload">` for each chunk of `files` at the end of <head>. */
export function withModulePreloads(html: string, files: string[]): string {
  const preloads = files.map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
  return html.replace(/\n\s*<\/head>/, `\n${preloads}  </head>`);
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
  const { renderRoute, renderStepShell, stepShellPaths, stepShellModules } = (await import(`${pathToFileURL(path.join(ssrOut, 'prerender.js')).href}?t=${Date.now()}`)) as {
    renderRoute: (pathname: string) => Promise<string>;
    renderStepShell: (pathname: string) => Promise<string>;
    stepShellPaths: () => string[];
    stepShellModules: (pathname: string) => string[];
  };
  for (const { route } of ROUTE_PAGES.filter((p) => p.prerender)) {
    const file = path.join(dist, 'pages', `${route.slice(1)}.html`);
    const markup = await renderRoute(route);
    fs.writeFileSync(file, withPrerendered(fs.readFileSync(file, 'utf8'), route, markup));
  }
  // Every step of both flow files: the app's index.html with the step's shell, preloading the step
  // page's chunks and the step's own (its validator, widgets and fields).
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const indexHtml = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  // index.html (every other page of the app): the app's chunks load beside the small entry, not after it.
  fs.writeFileSync(path.join(dist, 'index.html'), withModulePreloads(indexHtml, staticChunks(manifest, [APP_MODULE])));
  for (const route of stepShellPaths()) {
    const file = path.join(dist, 'pages', `${route.slice(1)}.html`);
    const files = staticChunks(manifest, [APP_MODULE, ...STEP_PAGE_CHUNKS, ...stepShellModules(route)]);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, withStepShell(indexHtml, route, await renderStepShell(route), files));
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
