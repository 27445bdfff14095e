import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { prerenderPages } from './prerender.ts';

/**
 * Guest pages that get their own copy of index.html (issue 14: the first page every applicant sees),
 * prerendered unless what they show depends on the browser: /register/account shows its form only
 * after a type was chosen on /register (kept in localStorage), so it is not prerendered.
 */
export const ROUTE_PAGES: { route: string; src: string; prerender: boolean }[] = [
  { route: '/login', src: 'src/pages/login/LoginPage.tsx', prerender: true },
  { route: '/register', src: 'src/pages/register/TypeSelectionPage.tsx', prerender: true },
  { route: '/register/account', src: 'src/pages/register/AccountPage.tsx', prerender: false },
  { route: '/password/forgot', src: 'src/pages/ForgotPasswordPage.tsx', prerender: true },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The files (`assets/…`) `key` and its static imports load, recursively. */
function closure(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) closure(manifest, imported, seen);
  return seen;
}

/**
 * index.html for one route with `<link rel="modulepreload">` for the route's lazy chunk and its
 * imports, so the browser fetches them with the entry (a request chain of two for the first paint:
 * the HTML, then every script in parallel) instead of after the entry has run.
 */
export function routeHtml(indexHtml: string, manifest: Record<string, ManifestChunk>, src: string): string {
  const already = new Set([...indexHtml.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]));
  const files = [...closure(manifest, src)].map((key) => manifest[key].file).filter((file) => file.endsWith('.js') && !already.has(file));
  const links = files.map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
  return indexHtml.replace(/\n\s*<\/head>/, `\n${links}  </head>`);
}

/**
 * After the build: `dist/pages/<route>.html` for each guest page, prerendered (scripts/prerender.ts),
 * which server/plugins/static-assets.ts sends for that exact path (the app's index.html for every
 * other one). Needs `build.manifest`.
 */
export function routePages(pages = ROUTE_PAGES): Plugin {
  let outDir = 'dist';
  return {
    name: 'ghiseu:route-pages',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const manifestPath = path.join(outDir, '.vite', 'manifest.json');
        if (!fs.existsSync(manifestPath)) return;
        const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
        const indexHtml = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        for (const { route, src } of pages) {
          if (!manifest[src]) throw new Error(`route-pages: no chunk for ${src} (${route}) in the manifest`);
          const target = path.join(outDir, 'pages', `${route.replace(/^\//, '')}.html`);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, routeHtml(indexHtml, manifest, src));
        }
        // Each page's HTML as a guest first sees it, inside <div id="root"> (src/main.tsx hydrates it).
        await prerenderPages(outDir);
      },
    },
  };
}
