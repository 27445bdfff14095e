import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Guest pages that get their own copy of index.html (issue 14: the first page every applicant sees). */
export const ROUTE_PAGES: { route: string; src: string }[] = [
  { route: '/login', src: 'src/pages/login/LoginPage.tsx' },
  { route: '/register', src: 'src/pages/register/TypeSelectionPage.tsx' },
  { route: '/register/account', src: 'src/pages/register/AccountPage.tsx' },
  { route: '/password/forgot', src: 'src/pages/ForgotPasswordPage.tsx' },
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
 * After the build: `dist/pages/<route>.html` for each guest page (server/plugins/static-assets.ts
 * sends it for that exact path, the app's index.html for every other one). Needs `build.manifest`.
 */
export function routePages(pages = ROUTE_PAGES): Plugin {
  let outDir = 'dist';
  return {
    name: 'ghiseu:route-pages',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
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
      },
    },
  };
}
