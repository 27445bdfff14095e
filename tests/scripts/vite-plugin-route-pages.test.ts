import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigEnv } from 'vite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GUEST_MANIFEST, pageChunks, ROUTE_PAGES } from '../../scripts/guest-pages';
import { routeHtml, routePages } from '../../scripts/vite-plugin-route-pages';
import { withPrerendered } from '../../scripts/prerender';
import { GUEST_ENTRIES } from '../../vite.guest.config';

const INDEX = `<!doctype html>
<html lang="ro">
  <head>
    <title>Ghișeu</title>
    <script type="module" crossorigin src="/assets/index-a1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-b2.js">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

/** A guest manifest (vite.guest.config.ts): one entry per page, shared chunks. */
const manifest = {
  'src/guest/pages/login.ts': { file: 'assets/login-e5.js', imports: ['_start-b2.js'], dynamicImports: ['src/pages/login/LoginPage.tsx'], isEntry: true },
  'src/guest/pages/register.ts': { file: 'assets/register-f6.js', imports: ['_start-b2.js'], dynamicImports: ['src/pages/register/TypeSelectionPage.tsx'], isEntry: true },
  '_start-b2.js': { file: 'assets/start-b2.js', dynamicImports: ['src/guest/render.tsx', 'locales/en/common.json'] },
  'locales/en/common.json': { file: 'assets/common-j1.js', isDynamicEntry: true },
  'src/guest/render.tsx': { file: 'assets/render-g7.js', css: ['assets/render-g7.css'], isDynamicEntry: true },
  'src/pages/login/LoginPage.tsx': { file: 'assets/LoginPage-h8.js', imports: ['_forms-d4.js', 'src/guest/render.tsx'], isDynamicEntry: true },
  'src/pages/register/TypeSelectionPage.tsx': { file: 'assets/TypeSelectionPage-i9.js', isDynamicEntry: true },
  '_forms-d4.js': { file: 'assets/forms-d4.js', imports: ['_start-b2.js'] },
};

describe("a guest page's document", () => {
  it("loads the page's own entry and preloads its static imports, once, instead of the app", () => {
    const html = routeHtml(INDEX, manifest, 'src/guest/pages/login.ts');
    // At low priority: the page is prerendered, its first paint needs none of its scripts.
    expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/login-e5.js"></script>');
    const preloaded = [...html.matchAll(/rel="modulepreload" fetchpriority="low" crossorigin href="\/([^"]+)"/g)].map((m) => m[1]);
    expect(html.match(/rel="modulepreload"/g)).toHaveLength(preloaded.length);
    // What the entry imports statically, and what it (and they) import once the page is painted.
    expect(preloaded).toEqual(['assets/start-b2.js', 'assets/render-g7.js', 'assets/LoginPage-h8.js', 'assets/forms-d4.js']);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/render-g7.css">');
    expect(html).not.toContain('TypeSelectionPage');
    // The English texts come when English is chosen (src/guest/i18n.ts), not with every visit.
    expect(html).not.toContain('common-j1.js');
    expect(html).not.toContain('index-a1.js');
    expect(html).not.toContain('vendor-b2.js');
    expect(html).not.toContain('register-f6.js');
    expect(html.indexOf('login-e5.js')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root"></div>');
  });

  it("counts each chunk once, the page's entry first", () => {
    expect(pageChunks(manifest, 'src/guest/pages/register.ts')).toEqual([
      'src/guest/pages/register.ts',
      '_start-b2.js',
      'src/guest/render.tsx',
      'src/pages/register/TypeSelectionPage.tsx',
    ]);
  });

  it('refuses an entry the guest build did not produce', () => {
    expect(() => routeHtml(INDEX, manifest, 'src/guest/pages/nothing.ts')).toThrow('no chunk for src/guest/pages/nothing.ts');
  });

  it('gets the prerendered markup inside #root, marked with its route', () => {
    const html = withPrerendered(INDEX, '/login', '<main id="main"><h1>Bine ai revenit!</h1></main>');
    expect(html).toContain('<div id="root" data-prerendered="/login"><main id="main"><h1>Bine ai revenit!</h1></main></div>');
    expect(() => withPrerendered('<html><body></body></html>', '/login', '<h1></h1>')).toThrow('no <div id="root"></div>');
  });
});

describe('the plugin routePages', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  type Hooks = { configResolved: (config: object) => void; closeBundle: { order: string; sequential: boolean; handler: () => Promise<void> } };

  it("applies to the app's client build only, after the other plugins, one at a time", () => {
    const plugin = routePages();
    const apply = (env: ConfigEnv) => (plugin.apply as (config: object, env: ConfigEnv) => boolean)({}, env);
    expect(apply({ command: 'build', mode: 'production', isSsrBuild: false })).toBe(true);
    expect(apply({ command: 'build', mode: 'production', isSsrBuild: true })).toBe(false);
    expect(apply({ command: 'serve', mode: 'development' })).toBe(false);
    const { closeBundle } = plugin as unknown as Hooks;
    expect([closeBundle.order, closeBundle.sequential]).toEqual(['post', true]);
  });

  it('after the build: the guest build into the same folder, a document per guest page, then the prerender', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'route-pages-'));
    dirs.push(root);
    const outDir = path.join(root, 'out');
    fs.mkdirSync(outDir);
    fs.writeFileSync(path.join(outDir, 'index.html'), INDEX);
    const guestBuild = vi.fn((_root: string, out: string) => {
      fs.mkdirSync(path.join(out, '.vite'), { recursive: true });
      fs.writeFileSync(path.join(out, GUEST_MANIFEST), JSON.stringify(manifest));
    });
    const written: string[] = [];
    const prerender = vi.fn(async (out: string) => {
      written.push(...fs.readdirSync(path.join(out, 'pages')));
    });
    const pages = [
      { route: '/login', src: 'src/pages/login/LoginPage.tsx', entry: 'src/guest/pages/login.ts', prerender: true },
      { route: '/register', src: 'src/pages/register/TypeSelectionPage.tsx', entry: 'src/guest/pages/register.ts', prerender: true },
    ];
    const plugin = routePages(pages, { guestBuild, prerender }) as unknown as Hooks;
    plugin.configResolved({ root, build: { outDir: 'out' } });
    await plugin.closeBundle.handler();
    expect(guestBuild).toHaveBeenCalledWith(root, outDir);
    expect(fs.readFileSync(path.join(outDir, 'pages', 'login.html'), 'utf8')).toBe(routeHtml(INDEX, manifest, 'src/guest/pages/login.ts'));
    expect(fs.readFileSync(path.join(outDir, 'pages', 'register.html'), 'utf8')).toBe(routeHtml(INDEX, manifest, 'src/guest/pages/register.ts'));
    // The prerender fills the documents the plugin wrote.
    expect(prerender).toHaveBeenCalledWith(outDir);
    expect(written.sort()).toEqual(['login.html', 'register.html']);
  });

  it('stops the build when the guest build has no chunk for a page', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'route-pages-'));
    dirs.push(root);
    fs.mkdirSync(path.join(root, 'dist', '.vite'), { recursive: true });
    fs.writeFileSync(path.join(root, 'dist', 'index.html'), INDEX);
    fs.writeFileSync(path.join(root, 'dist', GUEST_MANIFEST), JSON.stringify(manifest));
    const prerender = vi.fn(async () => undefined);
    const plugin = routePages([{ route: '/other', src: 'src/pages/Other.tsx', entry: 'src/guest/pages/other.ts', prerender: true }], { guestBuild: () => undefined, prerender }) as unknown as Hooks;
    plugin.configResolved({ root, build: { outDir: 'dist' } });
    await expect(plugin.closeBundle.handler()).rejects.toThrow('no chunk for src/guest/pages/other.ts');
    expect(prerender).not.toHaveBeenCalled();
  });

  it('the guest build builds an entry for every guest page, and only those', () => {
    expect(Object.fromEntries(ROUTE_PAGES.map((p) => [p.route, p.entry]))).toEqual(GUEST_ENTRIES);
  });
});
