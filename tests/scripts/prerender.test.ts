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

  it('every prerendered page is one of these (a page prerendered without a test could show nothing)', () => {
    expect(ROUTE_PAGES.filter((p) => p.prerender).map((p) => p.route)).toEqual(['/login', '/register', '/register/account', '/password/forgot']);
  });
});
