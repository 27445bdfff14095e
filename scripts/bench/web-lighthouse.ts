/**
 * One Lighthouse run of a page for `npm run bench:web` (scripts/bench-web.ts), as a first visit, and
 * the figures the bench keeps of its report.
 */
import fs from 'node:fs';
import path from 'node:path';
import lighthouse, { type Result } from 'lighthouse';
import type { Browser, Page } from 'puppeteer-core';
import { formatLanternLcp, lanternLcp } from '../bench-lantern.ts';
import type { Target } from './web-pages.ts';

export interface Measure {
  perf: number;
  lcp: number;
  tbt: number;
  a11y: number;
  jsBytes: number;
  /**
   * Lighthouse's `benchmarkIndex` of the machine during the run (a fixed JS loop, higher is faster;
   * Lighthouse's docs/throttling.md: 1500–2000 a high-end desktop, the host its 4× CPU slowdown is
   * calibrated for, 125–800 a mid-tier phone). The simulated CPU times (TBT) are the machine's own
   * times × 4, so figures from different machines compare only beside it.
   */
  benchmarkIndex: number;
  /** Long tasks Lighthouse saw (count, total ms), main-thread ms by group, script costs (scripting + parse ms). */
  longTasks: { count: number; ms: number };
  mainThread: Record<string, number>;
  scripts: { url: string; ms: number }[];
  /** With `--lantern`: the requests the simulated LCP waited for, as lines (scripts/bench-lantern.ts). */
  lantern?: string[];
  /**
   * Lighthouse's FCP (simulated), the LCP element (its selector and text), when the unthrottled trace
   * painted it and the first paint (ms after navigation start).
   */
  fcp: number;
  lcpElement: string;
  observedLcp: number;
  observedFcp: number;
}

/** A fresh start for `target`: the origin's storage as its visitor has it, the HTTP cache empty. */
async function prepare(page: Page, origin: string, target: Target): Promise<void> {
  await page.goto(`${origin}/favicon.svg`);
  await page.evaluate(
    (user, storage) => {
      localStorage.clear();
      sessionStorage.clear();
      if (user) localStorage.setItem('user', user);
      for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, value);
    },
    target.user ? JSON.stringify(target.user) : null,
    target.storage ?? {},
  );
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
}

/**
 * One Lighthouse run of `target` as a first visit, signed in (or not) as the target says: an empty
 * HTTP cache, and a browser context of its own, so a new renderer process. V8 keeps the code it has
 * compiled for an origin while the renderer lives: in the previous run's page (as this bench ran
 * until 2026-11-26) the app's modules were evaluated 35–50% faster, the second and third runs of a
 * page and every page after the first sharing the app's chunks.
 */
async function measure(browser: Browser, port: number, origin: string, target: Target, lantern: boolean): Promise<Measure> {
  return asFirstVisit(browser, origin, target, async (page) => {
    const result = await lighthouse(
      `${origin}${target.path}`,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: true },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${target.path}`);
    const measured = figures(result.lhr, target);
    return lantern ? { ...measured, lantern: formatLanternLcp(await lanternLcp(result)) } : measured;
  });
}

/** `visit` with a page of a browser context of its own (a new renderer), `prepare`d for `target`; the context goes after. */
export async function asFirstVisit<T>(browser: Browser, origin: string, target: Target, visit: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await prepare(page, origin, target);
    return await visit(page);
  } finally {
    await context.close();
  }
}

/** The figures of one run's report. */
function figures(lhr: Result, target: Target): Measure {
  // BENCH_LHR_DIR=dir: each run's whole Lighthouse report, to read what the figures came from.
  if (process.env.BENCH_LHR_DIR) {
    fs.mkdirSync(process.env.BENCH_LHR_DIR, { recursive: true });
    fs.writeFileSync(path.join(process.env.BENCH_LHR_DIR, `${target.path.replace(/\W+/g, '_')}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`${target.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const items = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return {
    perf: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue ?? NaN,
    tbt: lhr.audits['total-blocking-time'].numericValue ?? NaN,
    a11y: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
    jsBytes: items.filter((i) => i.resourceType === 'Script').reduce((sum, i) => sum + (i.transferSize ?? 0), 0),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    ...details(lhr.audits),
  };
}

type Audits = Record<string, { details?: unknown } | undefined>;
function auditItems<T>(audits: Audits, id: string): T[] {
  return ((audits[id]?.details as { items?: T[] } | undefined)?.items ?? []) as T[];
}

/** The figures behind TBT: long tasks, main-thread work by kind, the costliest scripts. */
function details(audits: Audits): Pick<Measure, 'longTasks' | 'mainThread' | 'scripts' | 'fcp' | 'lcpElement' | 'observedLcp' | 'observedFcp'> {
  const tasks = auditItems<{ duration: number }>(audits, 'long-tasks');
  const groups = auditItems<{ groupLabel: string; duration: number }>(audits, 'mainthread-work-breakdown');
  const boot = auditItems<{ url: string; scripting: number; scriptParseCompile: number }>(audits, 'bootup-time');
  const observed = auditItems<{ observedFirstContentfulPaint?: number }>(audits, 'metrics')[0] ?? {};
  return {
    observedFcp: observed.observedFirstContentfulPaint ?? NaN,
    longTasks: { count: tasks.length, ms: tasks.reduce((sum, t) => sum + t.duration, 0) },
    mainThread: Object.fromEntries(groups.map((g) => [g.groupLabel, g.duration])),
    scripts: boot.map((b) => ({ url: b.url.replace(/^https?:\/\/[^/]+/, ''), ms: b.scripting + b.scriptParseCompile })),
    ...lcpDetails(audits),
  };
}

/** The LCP element (Lighthouse's `largest-contentful-paint-element`: a table whose first row holds the node) and the observed timings. */
function lcpDetails(audits: Audits): Pick<Measure, 'fcp' | 'lcpElement' | 'observedLcp'> {
  type Node = { selector?: string; nodeLabel?: string };
  const table = auditItems<{ items?: { node?: Node }[] }>(audits, 'largest-contentful-paint-element')[0];
  const node = table?.items?.[0]?.node;
  const metrics = auditItems<{ observedLargestContentfulPaint?: number }>(audits, 'metrics')[0];
  return {
    fcp: (audits['first-contentful-paint'] as { numericValue?: number } | undefined)?.numericValue ?? NaN,
    lcpElement: node ? `${node.selector ?? '?'} "${(node.nodeLabel ?? '').slice(0, 60)}"` : '(none)',
    observedLcp: metrics?.observedLargestContentfulPaint ?? NaN,
  };
}

/**
 * Lighthouse now and then fails to record a page load (NO_NAVSTART, "Please run Lighthouse again"):
 * that run is taken again, at most twice, and said on stderr; a page that fails three times stops the bench.
 */
export async function measureOnce(browser: Browser, port: number, origin: string, target: Target, lantern: boolean): Promise<Measure> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(browser, port, origin, target, lantern);
    } catch (error) {
      if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(String(error))) throw error;
      console.error(`  (${target.label}: Lighthouse did not record the load, run taken again: ${String(error).split('\n')[0]})`);
    }
  }
}
