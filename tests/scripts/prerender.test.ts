import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/prerender';
import { ROUTE_PAGES } from '../../scripts/vite-plugin-route-pages';

/** The HTML a guest sees before any JavaScript ran (issue 14): the real page, in Romanian, with its styles. */
describe('guest pages prerendered at build time', () => {
  it.each([
    ['/login', ['Bine ai revenit!', 'Parola']],
    ['/register', ['Creează-ți contul Ghișeu']],
    ['/register/account', ['Datele contului tău', 'Telefon', 'Vreau cont Ghișeu']],
    ['/password/forgot', ['Ai uitat parola?', 'Trimite']],
  ])('%s', async (route, texts) => {
    const html = await renderRoute(route);
    for (const text of texts) expect(html).toContain(text);
    expect(html).toMatch(/<main[^>]*id="main"/);
    expect(html).toContain('<style data-emotion=');
  });

  it('each page carries the style of every class it uses, also when rendered after another page', async () => {
    // One build renders the four pages in turn: emotion writes a style into the HTML only the first time
    // its cache sees it, so a cache shared by the pages left the later ones unstyled until their script ran.
    for (const route of ['/login', '/register', '/register/account', '/password/forgot']) {
      const html = await renderRoute(route);
      const used = new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1].split(' ')).filter((c) => /^css-[a-z0-9]+$/.test(c)));
      const styled = new Set([...html.matchAll(/<style data-emotion="css ([^"]*)"/g)].flatMap((m) => m[1].split(' ').map((name) => `css-${name}`)));
      expect(used.size).toBeGreaterThan(5);
      expect([...used].filter((c) => !styled.has(c)), route).toEqual([]);
    }
  });

  it('every prerendered page is one of these (a page prerendered without a test could show nothing)', () => {
    expect(ROUTE_PAGES.filter((p) => p.prerender).map((p) => p.route)).toEqual(['/login', '/register', '/register/account', '/password/forgot']);
  });
});
