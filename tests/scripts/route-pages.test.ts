import { describe, expect, it } from 'vitest';
import { routeHtml } from '../../scripts/vite-plugin-route-pages';
import { withPrerendered } from '../../scripts/prerender';

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

const manifest = {
  'index.html': { file: 'assets/index-a1.js', imports: ['_vendor-b2.js'] },
  '_vendor-b2.js': { file: 'assets/vendor-b2.js' },
  '_input-c3.js': { file: 'assets/input-c3.js', imports: ['_vendor-b2.js'] },
  '_form-d4.js': { file: 'assets/form-d4.js', imports: ['_input-c3.js', 'index.html'] },
  'src/pages/login/LoginPage.tsx': { file: 'assets/LoginPage-e5.js', imports: ['_form-d4.js', '_vendor-b2.js', 'index.html'] },
  'src/pages/flow/FlowStepsPage.tsx': { file: 'assets/FlowStepsPage-f6.js', imports: ['_vendor-b2.js'] },
};

describe('a guest page copy of index.html', () => {
  it("preloads the page's chunk and its static imports, once, not what index.html already loads", () => {
    const html = routeHtml(INDEX, manifest, 'src/pages/login/LoginPage.tsx');
    const preloaded = [...html.matchAll(/rel="modulepreload" crossorigin href="\/([^"]+)"/g)].map((m) => m[1]);
    expect(preloaded).toEqual(['assets/vendor-b2.js', 'assets/LoginPage-e5.js', 'assets/form-d4.js', 'assets/input-c3.js']);
    expect(html).not.toContain('FlowStepsPage');
    expect(html.indexOf('LoginPage-e5.js')).toBeLessThan(html.indexOf('</head>'));
  });

  it('gets the prerendered markup inside #root, marked with its route', () => {
    const html = withPrerendered(INDEX, '/login', '<main id="main"><h1>Bine ai revenit!</h1></main>');
    expect(html).toContain('<div id="root" data-prerendered="/login"><main id="main"><h1>Bine ai revenit!</h1></main></div>');
    expect(() => withPrerendered('<html><body></body></html>', '/login', '<h1></h1>')).toThrow('no <div id="root"></div>');
  });
});
