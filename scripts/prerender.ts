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
import { ROUTE_PAGES } from './vite-plugin-route-pages.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export function withPrerendered(html: string, route: string, markup: string): string {
  const marker = '<div id="root"></div>';
  if (!html.includes(marker)) throw new Error(`prerender: no ${marker} in the page of ${route}`);
  return html.replace(marker, `<div id="root" data-prerendered="${route}">${markup}</div>`);
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
  const { renderRoute } = (await import(`${pathToFileURL(path.join(ssrOut, 'prerender.js')).href}?t=${Date.now()}`)) as {
    renderRoute: (pathname: string) => Promise<string>;
  };
  for (const { route } of ROUTE_PAGES.filter((p) => p.prerender)) {
    const file = path.join(dist, 'pages', `${route.slice(1)}.html`);
    const markup = await renderRoute(route);
    fs.writeFileSync(file, withPrerendered(fs.readFileSync(file, 'utf8'), route, markup));
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
