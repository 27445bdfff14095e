/**
 * The guest pages as documents of their own (issue 14): /login, /register, /register/account and
 * /password/forgot are prerendered HTML that loads only its light entry (src/guest, Preact), not the app.
 * What a visitor who opens them sees: the page before any script, the same page once its script ran,
 * no script error, no script beyond those the HTML names (a request chain of two), no axe violation,
 * and the way from /register through /register/account into the flow, as documents.
 */
import type { Page } from '@playwright/test';
import { axeViolations } from './axe';
import { currentRequest, DEFAULT_PASSWORD, expect, holdScripts, namedScripts, registerViaApi, test, uniqueEmail } from './fixtures';
import { flowStepText } from '../copy';

const PAGES = [
  { route: '/login', h1: 'Bine ai revenit!', ready: (page: Page) => page.getByRole('button', { name: 'Intră în cont' }) },
  { route: '/register', h1: 'Creează-ți contul Ghișeu', ready: (page: Page) => page.getByRole('radio', { name: /Vreau PFA/ }) },
  { route: '/password/forgot', h1: 'Ai uitat parola?', ready: (page: Page) => page.getByRole('button', { name: 'Trimite' }) },
];

/** Opens `route` as a document and records script errors and every script the browser fetched. */
async function open(page: Page, route: string) {
  const errors: string[] = [];
  const scripts: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const response = await page.goto(route);
  return { errors, scripts, html: (await response?.text()) ?? '' };
}

for (const { route, h1, ready } of PAGES) {
  test(`${route}: prerendered, then its own light entry, no error, axe-clean`, async ({ page }) => {
    const { errors, scripts, html } = await open(page, route);
    expect(html).toContain(`data-prerendered="${route}"`);
    expect(html).toContain(h1);
    await expect(page.getByRole('heading', { level: 1, name: h1 })).toBeVisible();
    await expect(ready(page)).toBeEnabled();
    await page.waitForLoadState('networkidle');
    // Every script is named by the HTML itself (the entry and its modulepreloads): nothing is discovered later.
    const named = namedScripts(html);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(named).toContain(script);
    expect(errors).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('/login: the password shows and hides with its button once the page is running', async ({ page }) => {
  await page.goto('/login');
  const password = page.getByLabel('Parola', { exact: true });
  await password.fill('secret1');
  await page.getByRole('button', { name: 'Arată parola' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Ascunde parola' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('link', { name: 'Ai uitat parola?' }).click();
  await expect(page).toHaveURL(/\/password\/forgot$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Ai uitat parola?' })).toBeVisible();
});

test('/login sent with Enter before its script ran: the password never goes into the address, the page comes back', async ({ page }) => {
  // The page's scripts held back, as on a slow phone: only the prerendered form is there.
  await page.route('**/assets/*.js', (route) => route.abort());
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/login');
  await page.getByLabel('Adresa de e-mail').fill('ana@exemplu.ro');
  await page.getByLabel('Parola', { exact: true }).fill('parola-sigura-1');
  await page.getByLabel('Parola', { exact: true }).press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bine ai revenit!' })).toBeVisible();
  expect(requests.filter((url) => url.includes('parola-sigura-1') || url.includes('exemplu.ro'))).toEqual([]);
});

test('/login: what was typed before the script ran is still there after it ran, and is what gets sent', async ({ page }) => {
  // The page's scripts held back until the applicant has typed, as on a slow phone.
  const release = await holdScripts(page);
  await page.addInitScript(watchFirstRender);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByLabel('Adresa de e-mail').fill('ana@exemplu.ro');
  await page.getByLabel('Parola', { exact: true }).fill('parola-sigura-1');
  release();
  await firstRender(page);
  await expect(page.getByLabel('Adresa de e-mail')).toHaveValue('ana@exemplu.ro');
  await expect(page.getByLabel('Parola', { exact: true })).toHaveValue('parola-sigura-1');
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/login') && request.method() === 'POST');
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  expect((await sent).postDataJSON()).toMatchObject({ email: 'ana@exemplu.ro', password: 'parola-sigura-1' });
});

/**
 * Follows, through Chromium's own network events, every `/assets/` script the tab fetches: which finished
 * loading (a prefetch included) and which the browser answered from its cache.
 */
async function watchAssets(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const urls = new Map<string, string>();
  const finished = new Set<string>();
  const fromCache = new Set<string>();
  const fromNetwork = new Set<string>();
  const asset = (url: string) => (new URL(url).pathname.startsWith('/assets/') ? new URL(url).pathname : null);
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    const path = asset(request.url);
    if (path) urls.set(requestId, path);
  });
  cdp.on('Network.loadingFinished', ({ requestId }) => {
    const path = urls.get(requestId);
    if (path) finished.add(path);
  });
  cdp.on('Network.responseReceived', ({ response }) => {
    const path = asset(response.url);
    if (path) (response.fromDiskCache || response.fromPrefetchCache ? fromCache : fromNetwork).add(path);
  });
  return {
    finished,
    /** Forgets what was fetched so far: what follows is the next page's. */
    reset() {
      fromCache.clear();
      fromNetwork.clear();
    },
    fromCache,
    fromNetwork,
  };
}

/** The scripts a guest page's HTML lists for its next page (`<template id="next-page">`). */
function nextPageScripts(html: string): string[] {
  const template = /<template id="next-page">(.*?)<\/template>/s.exec(html)?.[1] ?? '';
  return [...template.matchAll(/<link rel="prefetch"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
}

test("/login fetches the wizard's scripts once it is idle; signed in, the step page takes them from the cache", async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 2 });
  await currentRequest(request, account);
  const assets = await watchAssets(page);
  const next = nextPageScripts((await (await page.goto('/login'))?.text()) ?? '');
  expect(next.some((file) => /^\/assets\/framework-[^/]+\.js$/.test(file))).toBe(true);
  // The applicant types (the page has loaded and is idle meanwhile): the wizard's scripts arrive.
  await page.getByLabel('Adresa de e-mail').fill(account.email);
  await page.getByLabel('Parola', { exact: true }).fill(account.password);
  await expect.poll(() => next.filter((file) => !assets.finished.has(file))).toEqual([]);
  assets.reset();
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
  await expect(page.getByRole('heading', { level: 1, name: flowStepText('requesting-company-step-0', 'title') })).toBeVisible();
  // Every one of them the step page used came from the cache; none went over the network again.
  expect([...assets.fromNetwork].filter((file) => next.includes(file))).toEqual([]);
  expect(next.filter((file) => !assets.fromCache.has(file))).toEqual([]);
});

test('/register fetches the account form\'s scripts, /register/account the wizard\'s: each next page takes them from the cache', async ({ page }) => {
  const assets = await watchAssets(page);
  const toAccount = nextPageScripts((await (await page.goto('/register'))?.text()) ?? '');
  expect(toAccount.some((file) => /^\/assets\/register-account-[^/]+\.js$/.test(file))).toBe(true);
  await expect.poll(() => toAccount.filter((file) => !assets.finished.has(file))).toEqual([]);
  assets.reset();
  const account = page.waitForResponse((response) => new URL(response.url()).pathname === '/register/account');
  await page.locator('label', { has: page.getByRole('radio', { name: /Vreau PFA/ }) }).click();
  const toApp = nextPageScripts(await (await account).text());
  await expect(page.getByRole('heading', { level: 1, name: 'Datele contului tău' })).toBeVisible();
  // The heading is the prerendered page's: wait for the page's scripts to have answered, then see where from.
  await expect.poll(() => toAccount.filter((file) => !assets.fromCache.has(file) && !assets.fromNetwork.has(file))).toEqual([]);
  expect(toAccount.filter((file) => !assets.fromCache.has(file))).toEqual([]);
  expect(toApp.some((file) => /^\/assets\/framework-[^/]+\.js$/.test(file))).toBe(true);
  await page.getByLabel('Adresa de e-mail').fill(uniqueEmail('guest'));
  await page.getByLabel('Telefon').fill('0712345678');
  await page.getByLabel('Parola', { exact: true }).fill(DEFAULT_PASSWORD);
  await page.locator('label', { has: page.getByRole('checkbox') }).click();
  await expect.poll(() => toApp.filter((file) => !assets.finished.has(file))).toEqual([]);
  assets.reset();
  await page.getByRole('button', { name: 'Vreau cont Ghișeu' }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
  await expect(page.getByRole('checkbox').first()).toBeVisible();
  // The first step loaded every script (the app's and the step's own) from the cache, none over the network.
  expect(assets.fromCache.size).toBeGreaterThan(10);
  expect([...assets.fromNetwork]).toEqual([]);
});

test('/login with Save-Data on fetches nothing ahead', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true, effectiveType: '4g' } }));
  const assets = await watchAssets(page);
  const html = (await (await page.goto('/login'))?.text()) ?? '';
  await expect(page.getByRole('button', { name: 'Intră în cont' })).toBeEnabled();
  // The page has looked at its next page (it takes the template out), and the browser has been idle since
  // the load (idle callbacks run in the order they were asked for): a prefetch would be in <head> by now.
  await page.waitForLoadState('load');
  await expect(page.locator('template#next-page')).toHaveCount(0);
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5000 })));
  await expect(page.locator('link[rel="prefetch"]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  const own = namedScripts(html.replace(/<template id="next-page">.*?<\/template>/s, ''));
  expect([...assets.finished].filter((file) => !own.includes(file))).toEqual([]);
});

test('/register/account without a chosen type goes back to /register', async ({ page }) => {
  await page.goto('/register/account');
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Creează-ți contul Ghișeu' })).toBeVisible();
});

test('/register → /register/account → the flow, as documents, axe-clean on the account form', async ({ page }) => {
  const { errors } = await open(page, '/register');
  await page.locator('label', { has: page.getByRole('radio', { name: /Vreau PFA/ }) }).click();
  await expect(page).toHaveURL(/\/register\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Datele contului tău' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Vreau cont Ghișeu' });
  await page.getByLabel('Adresa de e-mail').fill(uniqueEmail('guest'));
  await page.getByLabel('Telefon').fill('0712345678');
  await page.getByLabel('Parola', { exact: true }).fill(DEFAULT_PASSWORD);
  await expect(submit).toBeDisabled();
  await page.locator('label', { has: page.getByRole('checkbox') }).click();
  await expect(submit).toBeEnabled();
  expect(await axeViolations(page)).toEqual([]);
  await submit.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
  expect(errors).toEqual([]);
});

/**
 * Before the page's entry runs (readyState "interactive": the HTML is parsed, module scripts not yet run),
 * keeps every element of the prerendered page; then, from the first batch of changes (the entry's first
 * render, one task), which elements it removed or moved (re-inserted) and which prerendered ones are gone. Later changes (the
 * partner list replacing its spinner once loaded) are the page's own, not the start-up's.
 */
interface FirstRender {
  removed: string[];
  lost: string[];
  total: number;
  /** Elements the page's CSS did not show, taken out (repainting nothing). */
  notShownRemoved: number;
}
/**
 * Watches the root from the moment the prerendered document is parsed and keeps, as `firstRender`, what
 * the page's first render did to the prerendered elements. Its modules run in one task (emotion then
 * moves the prerendered <style>s to <head>: a batch of style moves only), the render in the next
 * (src/guest/start.ts): one synchronous render, so one batch of records, the first that touches
 * anything but styles.
 */
function watchFirstRender() {
  const w = window as unknown as { firstRender?: FirstRender };
  const isMoved = (el: Element) => ['STYLE', 'LINK'].includes(el.tagName); // emotion's styles and React's hoisted preload go to <head>
  const onlyStyles = (records: MutationRecord[]) =>
    records.every((r) => [...r.addedNodes, ...r.removedNodes].every((n) => n instanceof Element && isMoved(n)));
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    const root = document.getElementById('root')!;
    const prerendered = [...root.querySelectorAll('*')].filter((el) => !isMoved(el));
    // What the page's CSS does not show (the login banner below `lg`) is not painted: taking it out repaints nothing.
    const notShown = new Set(prerendered.filter((el) => el.getClientRects().length === 0));
    const shown = (el: Element) => !notShown.has(el);
    const observer = new MutationObserver((records) => {
      if (onlyStyles(records)) return;
      observer.disconnect();
      // An element taken out and put back (still connected) was moved: laid out and painted again, as new.
      const removed = records.flatMap((r) => [...r.removedNodes]).filter((n): n is Element => n instanceof Element && !isMoved(n));
      w.firstRender = {
        removed: removed.filter((el) => el.isConnected || shown(el)).map((el) => `${el.isConnected ? 'moved' : 'removed'}: ${el.outerHTML.slice(0, 100)}`),
        lost: prerendered.filter((el) => !root.contains(el) && shown(el)).map((el) => el.outerHTML.slice(0, 100)),
        total: prerendered.length,
        notShownRemoved: removed.filter((el) => !el.isConnected && !shown(el)).length,
      };
    });
    observer.observe(root, { childList: true, subtree: true });
  });
}

/** What the first render did to the prerendered elements. */
async function firstRender(page: Page): Promise<FirstRender> {
  return page.waitForFunction(() => (window as unknown as { firstRender?: unknown }).firstRender).then((h) => h.jsonValue() as Promise<FirstRender>);
}

const RENDERED = [...PAGES, { route: '/register/account', h1: 'Datele contului tău', ready: (page: Page) => page.getByRole('button', { name: 'Vreau cont Ghișeu' }) }];
for (const { route, h1, ready } of RENDERED) {
  test(`${route}: the entry renders into the prerendered elements (none is removed, moved or drawn again)`, async ({ page }) => {
    await page.addInitScript(watchFirstRender);
    // /register/account as a visitor who chose a type on /register sees it (its prerender).
    if (route === '/register/account') await page.addInitScript(() => localStorage.setItem('registration', JSON.stringify({ type: 2 })));
    await page.goto(route);
    await expect(ready(page)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: h1 })).toBeVisible();
    const render = await firstRender(page);
    expect(render.total).toBeGreaterThan(10);
    expect(render.removed).toEqual([]);
    expect(render.lost).toEqual([]);
  });
}

test.describe('on a phone (360 × 640)', () => {
  test.use({ viewport: { width: 360, height: 640 } });

  test('/login: the entry renders into the prerendered elements and drops the banner the phone does not show (no autoplay)', async ({ page }) => {
    await page.addInitScript(watchFirstRender);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Intră în cont' })).toBeVisible();
    const render = await firstRender(page);
    expect(render.removed).toEqual([]);
    expect(render.lost).toEqual([]);
    expect(render.notShownRemoved).toBeGreaterThan(0);
    await expect(page.locator('section[aria-roledescription]')).toHaveCount(0);
  });

  test('/login: the form starts at the top, so a phone painting the HTML in parts does not slide it up as the rest arrives', async ({ page }) => {
    await page.goto('/login');
    const heading = page.getByRole('heading', { level: 1, name: 'Bine ai revenit!' });
    await expect(page.getByRole('button', { name: 'Intră în cont' })).toBeVisible();
    const whole = (await heading.boundingBox())!.y;
    // The page as a slow phone paints it while the HTML is still arriving: the form not parsed yet.
    await page.locator('form').evaluate((form: HTMLElement) => (form.style.display = 'none'));
    expect((await heading.boundingBox())!.y).toBe(whole);
  });
});
