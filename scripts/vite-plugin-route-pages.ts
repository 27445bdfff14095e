import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import type { Manifest } from 'vite';
import { GUEST_MANIFEST, pageChunks, ROUTE_PAGES } from './guest-pages.ts';
import { prerenderPages, withLowPriorityScripts } from './prerender.ts';

/**
 * index.html of the app turned into a guest page's document: the app's scripts, preloads and style
 * sheets are taken out, and the page's entry goes in with a `<link rel="modulepreload">` for each chunk
 * it loads (`pageChunks`) (a request chain of two for the first paint: the HTML, then every script in parallel),
 * all `fetchpriority="low"`: the page is prerendered, its first paint needs none of them
 * (`withLowPriorityScripts`).
 */
export function routeHtml(indexHtml: string, manifest: Manifest, entry: string): string {
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

/** The guest build (vite.guest.config.ts) into `outDir`, as a child `vite build`. */
function guestBuild(root: string, outDir: string): void {
  const guest = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--config', 'vite.guest.config.ts', '--outDir', outDir, '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (guest.status !== 0) throw new Error('route-pages: the guest build (vite.guest.config.ts) failed');
}

/**
 * After the app's build: the guest build (vite.guest.config.ts, into the same folder), then
 * `dist/pages/<route>.html` for each guest page, prerendered (scripts/prerender.ts), which
 * server/plugins/static-assets.ts sends for that exact path (the app's index.html for every other one).
 * `steps` replaces the two child builds (the tests: tests/scripts/vite-plugin-route-pages.test.ts).
 */
export function routePages(
  pages = ROUTE_PAGES,
  steps: { guestBuild?: (root: string, outDir: string) => void; prerender?: (outDir: string) => Promise<void> } = {},
): Plugin {
  const { guestBuild: buildGuest = guestBuild, prerender = prerenderPages } = steps;
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
        buildGuest(root, outDir);
        const manifest = JSON.parse(fs.readFileSync(path.join(outDir, GUEST_MANIFEST), 'utf8')) as Manifest;
        const indexHtml = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        for (const { route, entry } of pages) {
          const target = path.join(outDir, 'pages', `${route.replace(/^\//, '')}.html`);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, routeHtml(indexHtml, manifest, entry));
        }
        // Each page's HTML as a guest first sees it, inside <div id="root"> (its entry renders over it).
        await prerender(outDir);
      },
    },
  };
}
