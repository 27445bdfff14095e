/**
 * A step's address opened as a document (a reload, a link from an e-mail, Lighthouse): the page
 * shows the step's prerendered shell, then the app's step in its place. What the applicant sees must
 * not move once it is there: the app shows itself only when its widgets have drawn what they load
 * (the questionnaire's options, the identity session, the activities), not with their spinner and the
 * step's buttons right below it, which the options then pushed down (src/shared/shell.ts
 * `revealWhenDrawn`; issue 14: Lighthouse counted it in CLS, 0.09–0.15 on these steps).
 */
import type { Page } from '@playwright/test';
import { applicantAtStep, auth, currentRequest, expect, holdRequests, holdScripts, namedScripts, PHONE, registerViaApi, signInBrowser, test } from './fixtures';
import { flowStepText, localeText } from '../copy';

test.use(PHONE);

/**
 * Follows, frame by frame from the page's first script on, where the app's footer and buttons are
 * drawn (their top, in each `requestAnimationFrame`: the layout that frame paints, from when the
 * app's root shows). The returned call ends the watch and names each one drawn at more than one
 * place ("footer: 607 → 1006"). Lighthouse's CLS counts such moves; an applicant sees the button
 * they were about to press jump.
 */
async function watchMoves(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const tops = new Map<Element, number[]>();
    let frames = 0;
    const sample = () => {
      const root = document.getElementById('root');
      if (root && !root.hidden) {
        for (const element of root.querySelectorAll('footer, button')) {
          const rect = element.getBoundingClientRect();
          if (rect.height === 0) continue;
          const seen = tops.get(element) ?? [];
          if (seen.at(-1) !== Math.round(rect.top)) seen.push(Math.round(rect.top));
          tops.set(element, seen);
        }
      }
      // Bounded: 20 s of frames at most.
      if (++frames < 1200) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
    Object.assign(window, {
      __moves: () =>
        [...tops]
          .filter(([, seen]) => seen.length > 1)
          .map(([element, seen]) => `${element.tagName.toLowerCase()}${element.textContent ? ` "${element.textContent.trim().slice(0, 30)}"` : ''}: ${seen.join(' → ')}`),
    });
  });
  return () =>
    page.evaluate(async () => {
      // The frame after the last change is sampled too.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return (window as unknown as { __moves(): string[] }).__moves();
    });
}

/** Each step with the call its widget loads what it draws with (held back until the app has rendered the step), and something it draws. */
const STEPS = [
  { path: '/infiintare-pfa/0', step: 'requesting-company-step-0', loads: '**/api/nomenclature/lost-reasons/index*', drawn: (page: Page) => page.getByRole('checkbox', { name: 'Niciuna dintre acestea' }) },
  { path: '/infiintare-pfa/1', step: 'requesting-company-step-1', loads: '**/api/veriff/get-last-session*', drawn: (page: Page) => page.getByRole('button', { name: localeText('steps:identity.submit') }) },
  { path: '/infiintare-pfa/2', step: 'requesting-company-step-2', loads: '**/api/nomenclature/activity/index*', drawn: (page: Page) => page.getByRole('radio', { name: localeText('steps:activities.notFound') }) },
  { path: '/inregistrare/1', step: 'existing-company-step-1', loads: '**/api/nomenclature/lost-reasons/index*', drawn: (page: Page) => page.getByRole('checkbox', { name: 'Niciuna dintre acestea' }) },
] as const;

for (const { path, step, loads, drawn } of STEPS) {
  test(`${path} opened as a page: the step is drawn in one go, nothing on screen moves`, async ({ page, request }) => {
    await signInBrowser(page, await applicantAtStep(request, step));
    const moves = await watchMoves(page);
    // The widget's answer arrives after the app has rendered the step (its spinner), as on a slow
    // connection: without holding it, a fast answer may come before the step renders, and nothing is
    // left to see.
    const answer = await holdRequests(page, loads);
    await page.goto(path);
    await expect(page.locator('#root').getByLabel(localeText('steps:common.loading'))).toBeAttached();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Two frames drawn with the app's step rendered, before the answer.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    answer();
    await expect(drawn(page)).toBeVisible();
    expect(page.url()).toMatch(new RegExp(`${path}$`));
    expect(await moves()).toEqual([]);
  });
}

test('pages that paint from their own HTML fetch their scripts at low priority; the app’s index.html does not', async ({ page, request }) => {
  // A step page (its shell) and a guest page (prerendered): Chromium asks for every script at Low.
  const account = await registerViaApi(request, { type: 2 });
  await currentRequest(request, account);
  await signInBrowser(page, account);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const priorities = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', ({ request: sent }) => {
    const url = new URL(sent.url);
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js') && !priorities.has(url.pathname)) priorities.set(url.pathname, sent.initialPriority);
  });
  const answer = await page.goto('/infiintare-pfa/0');
  await expect(page.getByRole('checkbox', { name: 'Niciuna dintre acestea' })).toBeVisible();
  // The scripts the HTML names (the app imports more later, as it needs them: those are its own).
  const named = namedScripts(await answer!.text());
  expect(named.length).toBeGreaterThan(5);
  expect(Object.fromEntries(named.map((path) => [path, priorities.get(path)]))).toEqual(Object.fromEntries(named.map((path) => [path, 'Low'])));

  for (const path of ['/login', '/register']) {
    const html = await (await request.get(path)).text();
    const tags = html.match(/<(?:script type="module"|link rel="modulepreload")[^>]*>/g) ?? [];
    // Two files: the page's entry and what the guest pages share (vite.guest.config.ts), not the English texts.
    expect(tags.map((tag) => /\/assets\/([a-z-]+)-/.exec(tag)?.[1]), path).toEqual([path.slice(1), 'start']);
    for (const tag of tags) {
      expect(tag, path).toContain('fetchpriority="low"');
      // Compiled as it arrives, off the main thread (scripts/vite-plugin-compile-hints.ts).
      const script = await (await request.get(/(?:src|href)="([^"]+)"/.exec(tag)![1])).text();
      expect(script.startsWith('//# allFunctionsCalledOnLoad\n'), tag).toBe(true);
    }
  }
  // index.html (the flow's address, a page of the app without a shell): the app is its first paint.
  const index = await (await request.get('/infiintare-pfa', { headers: auth(account) })).text();
  expect(index).toMatch(/<script type="module"/);
  expect(index).not.toContain('fetchpriority');
});

test('the questionnaire’s options are asked for beside the request, not after it (one round trip less on a phone)', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 2 });
  await currentRequest(request, account);
  await signInBrowser(page, account);
  // The request's answer held back: the options must be asked for meanwhile.
  const answer = await holdRequests(page, '**/api/registration/open*');
  const options = page.waitForRequest('**/api/nomenclature/lost-reasons/index*');
  await page.goto('/infiintare-pfa/0');
  await options;
  answer();
  await expect(page.getByRole('checkbox', { name: 'Niciuna dintre acestea' })).toBeVisible();
  // Asked for once: the widget took the answer the page had asked for.
  const asked = await page.evaluate(() => performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/api/nomenclature/lost-reasons/index')).length);
  expect(asked).toBe(1);
});

/** Steps whose intro (their flow file's copy) is the same for every applicant: in the page's HTML. */
const INTROS = [
  {
    name: 'the card step’s offer',
    path: '/inregistrare/7',
    step: 'existing-company-step-7',
    heading: flowStepText('existing-company-step-7', 'title'),
    intro: flowStepText('existing-company-step-7', 'intro'),
    drawn: (page: Page) => page.getByRole('radio', { name: localeText('steps:card.yes') }),
  },
  {
    name: 'the identity step’s intro',
    path: '/infiintare-pfa/1',
    step: 'requesting-company-step-1',
    heading: flowStepText('requesting-company-step-1', 'title'),
    intro: flowStepText('requesting-company-step-1', 'intro'),
    drawn: (page: Page) => page.getByRole('button', { name: localeText('steps:identity.submit') }),
  },
] as const;

for (const { name, path, step, heading, intro, drawn } of INTROS) {
  test(`${name} is readable before the app has loaded, and stays where it is when the app takes over`, async ({ page, request }) => {
    await signInBrowser(page, await applicantAtStep(request, step));
    const scripts = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    const text = page.getByText(intro, { exact: true });
    // The page's own HTML (no script has run): the heading and the intro under it.
    await expect(page.locator('#shell').getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('#shell').getByText(intro, { exact: true })).toBeVisible();
    const before = await text.boundingBox();
    scripts();
    await expect(drawn(page)).toBeVisible();
    await expect(page.locator('#shell')).toHaveCount(0);
    // The app's step: the intro once, at the same place, above the widget.
    await expect(text).toHaveCount(1);
    expect(await text.boundingBox()).toEqual(before);
  });
}

test('a step page asks for its request, the dashboard check and the settings before the app’s scripts have arrived, and only once', async ({ page, request }) => {
  await signInBrowser(page, await applicantAtStep(request, 'requesting-company-step-4'));
  // The app's scripts held back (not the page's small entry, which asks): the three calls go out meanwhile.
  const framework = await holdRequests(page, '**/assets/framework-*.js');
  const open = page.waitForRequest('**/api/registration/open?timestamp=*');
  const check = page.waitForRequest('**/api/user/dashboard-redirect');
  const settings = page.waitForRequest('**/api/config');
  await page.goto('/infiintare-pfa/4', { waitUntil: 'commit' });
  expect((await open).headers()['authorization']).toMatch(/^Bearer /);
  await check;
  await settings;
  framework();
  await expect(page.getByRole('button', { name: localeText('steps:civilStatus.notMarried'), exact: true })).toBeVisible();
  const asked = (path: string) => page.evaluate((p) => performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname === p).length, path);
  expect(await asked('/api/registration/open')).toBe(1);
  expect(await asked('/api/user/dashboard-redirect')).toBe(1);
  expect(await asked('/api/config')).toBe(1);
});

test('a step page loads the address pickers’ scripts only where a widget of the step draws them', async ({ request }) => {
  // The combobox (its Zag machine, popper, Floating UI) is its own chunk (vite.config.ts), not in every step's scripts.
  // The overview (/infiintare-pfa/7) draws its CAEN rows and office popup before their chunks, which it asks for once drawn (overview.spec.ts).
  const scripts = async (path: string) => namedScripts(await (await request.get(path)).text());
  for (const path of ['/infiintare-pfa/0', '/infiintare-pfa/7', '/infiintare-pfa/8', '/inregistrare/2', '/inregistrare/6']) {
    expect((await scripts(path)).filter((script) => /\/(ServerCombobox|dialog|OfficeDialog)-/.test(script)), path).toEqual([]);
  }
  // The identity step (its home address form) names it in its HTML, so it is fetched beside the step's other scripts.
  expect((await scripts('/infiintare-pfa/1')).filter((script) => /\/ServerCombobox-/.test(script))).toHaveLength(1);
});

/** A step whose widget draws the applicant's own data: its shell names the call (the widget's `prefetch`), the page's entry asks (src/shared/api/ahead.ts). */
const ASKED_AHEAD = [
  {
    name: 'the identity step’s last session',
    step: 'requesting-company-step-1',
    path: '/infiintare-pfa/1',
    call: '/api/veriff/get-last-session',
    drawn: (page: Page) => page.getByRole('button', { name: localeText('steps:identity.submit') }),
  },
  {
    name: 'the overview’s data (name, phone, e-mail, codes)',
    step: 'requesting-company-step-7',
    path: '/infiintare-pfa/7',
    call: '/api/registration/overview',
    drawn: (page: Page) => page.getByText(localeText('steps:overview.caenIntro', { max: 5 })),
  },
] as const;

for (const { name, step, path, call, drawn } of ASKED_AHEAD) {
  test(`${name} is asked for before the app’s scripts have arrived, and only once`, async ({ page, request }) => {
    await signInBrowser(page, await applicantAtStep(request, step));
    // The app's scripts held back (not the page's small entry): the step's shell names the call, the entry asks.
    const framework = await holdRequests(page, '**/assets/framework-*.js');
    const asked = page.waitForRequest((r) => new URL(r.url()).pathname === call);
    await page.goto(path, { waitUntil: 'commit' });
    await asked;
    framework();
    await expect(drawn(page)).toBeVisible();
    const times = await page.evaluate((p) => performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname === p).length, call);
    expect(times).toBe(1);
  });
}
