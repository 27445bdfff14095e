/**
 * `npm run bench:web -- --journey`: the wait between a guest page's form and the wizard's first step
 * (issue 14: "a new applicant on a mid-range phone waits for the whole app"). Lighthouse loads one page
 * with an empty cache; an applicant comes from /login or /register/account, whose idle time can fetch the
 * app's scripts ahead (src/guest/prefetch.ts). Each run, in a page that scripts/bench-web.ts gives as a
 * first visit (a browser context of its own, empty cache, `storage` set), throttled as Lighthouse's mobile
 * preset stands for a phone, but applied
 * (`Network.emulateNetworkConditions`, `Emulation.setCPUThrottlingRate`), since Lighthouse's simulation
 * does not follow a navigation:
 * 1. opens the guest page and fills its form (the account's e-mail and password, or a new account);
 * 2. waits `THINK_MS` after the page's load event, as an applicant typing would (bounded: one wait per run);
 * 3. presses the submit button and measures until the step page is on screen (its first contentful
 *    paint) and until the step is usable (the app's form shown), and how many of the step page's scripts
 *    came from the browser's cache.
 * Only 127.0.0.1 is loaded.
 */
import { throttling } from 'lighthouse/core/config/constants.js';
import type { Page } from 'puppeteer-core';

const { mobileSlow4G } = throttling;

/**
 * Lighthouse's mobile throttling (`mobileSlow4G`, its default), in the applied (DevTools) form Lighthouse
 * itself uses for it: 150 ms RTT × 3.75 of request latency, 1.6 Mbps × 0.9 down, 750 kbps × 0.9 up (in
 * bytes per second for Puppeteer), CPU 4×.
 */
export const PHONE_THROTTLING = {
  latency: mobileSlow4G.requestLatencyMs,
  download: (mobileSlow4G.downloadThroughputKbps * 1024) / 8,
  upload: (mobileSlow4G.uploadThroughputKbps * 1024) / 8,
  cpu: mobileSlow4G.cpuSlowdownMultiplier,
};

/** What the table's heading says of the throttling. */
export const PHONE_THROTTLING_TEXT = `Lighthouse's mobileSlow4G applied: ${mobileSlow4G.requestLatencyMs} ms latency, ${mobileSlow4G.downloadThroughputKbps.toFixed(0)} Kbps down, ${mobileSlow4G.uploadThroughputKbps.toFixed(0)} Kbps up, CPU ${mobileSlow4G.cpuSlowdownMultiplier}×`;

/** How long the applicant spends on the form after the page has loaded. */
export const THINK_MS = 5000;

export interface JourneyStart {
  /** What the table calls it. */
  label: string;
  /** The guest page the applicant starts on. */
  path: string;
  /** localStorage entries before the load (the registration type chosen on /register). */
  storage?: Record<string, string>;
  /** Fills the page's form. */
  fill: (page: Page) => Promise<void>;
  /** The submit button's name. */
  submit: string;
  /** The address the step page has, once there. */
  arrives: RegExp;
}

export interface JourneyRun {
  /** From the press of the button to the step page's first contentful paint. */
  onScreenMs: number;
  /** From the press of the button to the step's form, rendered by the app. */
  usableMs: number;
  /** The step page's scripts (`/assets/*.js`) answered from the browser's cache, and all of them. */
  fromCache: number;
  scripts: number;
}

/** One run of `start` in `page` (a first visit, its storage set), throttled as a phone. */
export async function runJourney(page: Page, origin: string, start: JourneyStart): Promise<JourneyRun> {
  await page.emulateNetworkConditions(PHONE_THROTTLING);
  await page.emulateCPUThrottling(PHONE_THROTTLING.cpu);
  await page.goto(`${origin}${start.path}`, { waitUntil: 'load', timeout: 120_000 });
  const loadedAt = Date.now();
  await start.fill(page);
  const rest = THINK_MS - (Date.now() - loadedAt);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  const scripts = new Map<string, boolean>();
  let counting = false;
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (counting && url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.set(url.pathname, response.fromCache());
  });
  const button = await page.waitForSelector(`::-p-aria([name="${start.submit}"][role="button"])`);
  counting = true;
  const pressed = Date.now();
  await button!.click();
  await page.waitForFunction((pattern) => new RegExp(pattern).test(location.pathname), { timeout: 120_000, polling: 50 }, start.arrives.source);
  await page.waitForFunction(() => Boolean(document.querySelector('#root:not([hidden]) form')), { timeout: 120_000, polling: 'mutation' });
  const usableMs = Date.now() - pressed;
  // The step page's first contentful paint, on the machine's clock as `pressed` is.
  const painted = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    return paint ? performance.timeOrigin + paint.startTime : null;
  });
  const onScreenMs = painted === null ? usableMs : Math.round(painted - pressed);
  return { onScreenMs, usableMs, fromCache: [...scripts.values()].filter(Boolean).length, scripts: scripts.size };
}

/** Types `text` into the form's field `name`. */
export async function typeInto(page: Page, name: string, text: string): Promise<void> {
  const field = await page.waitForSelector(`input[name="${name}"]`);
  await field!.type(text);
}

/** The table's rows: per journey, the medians of its runs. */
export function formatJourneys(results: { start: JourneyStart; runs: JourneyRun[] }[]): string[] {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    '| journey | step on screen | step usable | step scripts from the cache |',
    '|---|---|---|---|',
    ...results.map(({ start, runs }) => {
      const each = runs.map((r) => seconds(r.usableMs)).join(', ');
      return `| ${start.label} | ${seconds(median(runs.map((r) => r.onScreenMs)))} | ${seconds(median(runs.map((r) => r.usableMs)))} (${each}) | ${median(runs.map((r) => r.fromCache))} of ${median(runs.map((r) => r.scripts))} |`;
    }),
  ];
}
