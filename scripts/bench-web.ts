/**
 * `npm run bench:web [-- --runs 3] [--no-build] [--only /login,/register] [--details] [--trace] [--lantern] [--journey]`
 *
 * Issue 14's browser benchmark (prints figures; not a test, not run in CI):
 * 1. `vite build` into build/bench-dist (unless --no-build), so that dist/ may change meanwhile;
 * 2. starts the app the way the Playwright tests do (tests/e2e/serve.ts: a fresh temporary DATA_DIR,
 *    embedded PGlite, the test-only `/__test/place-at-step` route) on a free port of 127.0.0.1;
 * 3. through the API, registers one applicant per page and places it at every step of both flow
 *    files, plus one on the status page and one on the built-in checkout page;
 * 4. runs Lighthouse (Node API, Chromium at CHROMIUM_PATH or /usr/bin/chromium, headless) with its
 *    default mobile settings (simulated throttling) `--runs` times per page (default 3), cold cache,
 *    the applicant signed in through localStorage `user` as the app keeps it;
 * 5. prints one table of medians: page, performance, LCP, TBT, accessibility, JavaScript transferred;
 *    with `--details`, also per page (on stderr) the long tasks, the main-thread work by kind and the
 *    scripts that cost the most (Lighthouse's long-tasks, mainthread-work-breakdown, bootup-time):
 *    figures that a loaded machine disturbs less than the score; with `--trace`, one more load per
 *    page, unthrottled, traced and profiled: its long tasks and whose code took the main thread
 *    (scripts/bench-trace.ts); with `--lantern`, per run, the requests Lighthouse's simulated LCP
 *    waited for, with their simulated start and end (scripts/bench-lantern.ts).
 * With `--journey`, instead of 4–5: from /login (signing in) and from /register/account (creating the
 * account) into the wizard's first step, `--runs` times each, throttled as a phone: how long after the
 * button the step is on screen and usable, and how many of its scripts came from the cache
 * (scripts/bench-journey.ts).
 *
 * Only 127.0.0.1 is ever loaded; every loop is bounded by the page list and `--runs`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { formatJourneys, PHONE_THROTTLING_TEXT, runJourney, THINK_MS, typeInto, type JourneyRun, type JourneyStart } from './bench-journey.ts';
import { formatLanternLcp, lanternLcp } from './bench-lantern.ts';
import { formatTrace, traceLoad } from './bench-trace.ts';
import { uniqueAddress } from '../tests/unique-email.ts';
import { SOURCE_MAPS_DIR } from './vite-plugin-precompress.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const BENCH_DIST = 'build/bench-dist';

interface FlowFile {
  registrationType: number;
  api: { open: string };
  steps: { id: string; path: string }[];
}
interface Target {
  label: string;
  path: string;
  /** The session user to keep in localStorage `user` (null: a guest). */
  user: unknown;
  /** More localStorage entries to set before the load (the registration type chosen on /register). */
  storage?: Record<string, string>;
}
interface Measure {
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

function parseArgs(argv: string[]) {
  const args = { runs: 3, build: true, details: false, trace: false, lantern: false, journey: false, only: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--runs') args.runs = Math.max(1, Math.min(9, Number(value()) || 3));
    else if (flag === '--no-build') args.build = false;
    else if (flag === '--details') args.details = true;
    else if (flag === '--trace') args.trace = true;
    else if (flag === '--lantern') args.lantern = true;
    else if (flag === '--journey') args.journey = true;
    else if (flag === '--only') args.only.push(...value().split(','));
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return args;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts tests/e2e/serve.ts on `port`; resolves once it listens. */
function startServer(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['tests/e2e/serve.ts'], {
      cwd: root,
      env: { ...process.env, E2E_PORT: String(port), E2E_LOG: '0', E2E_DIST: BENCH_DIST },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[e2e] server on')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.once('exit', (code) => reject(new Error(`the server stopped (${code}) before listening:\n${output}`)));
  });
}

async function api<T>(origin: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { payload: T }).payload;
}

const PASSWORD = 'parola-sigura-1';

/** A fresh applicant of `registrationType` (unaffiliated partner), its request opened. */
async function applicant(origin: string, flow: FlowFile): Promise<{ user: { access_token: string }; token: string; email: string }> {
  const partners = await api<{ id: number; is_unaffiliated: boolean }[]>(origin, 'GET', '/api/partner/index');
  const partner = partners.find((p) => p.is_unaffiliated) ?? partners[0];
  const email = uniqueAddress('bench');
  const user = await api<{ access_token: string }>(origin, 'POST', '/api/register', {
    email,
    password: PASSWORD,
    phone: '0712345678',
    referral_code: null,
    cookies: [],
    marketing_accepted: true,
    registration_type: flow.registrationType,
    partner_id: partner.id,
  });
  await api(origin, 'GET', flow.api.open, undefined, user.access_token);
  return { user, token: user.access_token, email };
}

const readFlow = (file: string) => JSON.parse(fs.readFileSync(path.join(root, 'flows', file), 'utf8')) as FlowFile;

/**
 * The two ways into the wizard, for `--journey`: signing in as an applicant whose request stands at the
 * new-PFA flow's first step, and creating a new-PFA account.
 */
async function journeys(origin: string, runs: number): Promise<JourneyStart[]> {
  const flow = readFlow('new-pfa.json');
  const first = new RegExp(`^${flow.steps[0].path}$`);
  const accounts: string[] = [];
  for (let i = 0; i < runs; i++) accounts.push((await applicant(origin, flow)).email);
  let next = 0;
  return [
    {
      label: '/login → the step it leads to',
      path: '/login',
      fill: async (page) => {
        await typeInto(page, 'email', accounts[next++]);
        await typeInto(page, 'password', PASSWORD);
      },
      submit: 'Intră în cont',
      arrives: first,
    },
    {
      label: '/register/account → the first step',
      path: '/register/account',
      storage: { registration: JSON.stringify({ type: flow.registrationType }) },
      fill: async (page) => {
        await typeInto(page, 'email', uniqueAddress('bench'));
        await typeInto(page, 'phone', '0712345678');
        await typeInto(page, 'password', PASSWORD);
        await page.click('label:has(input[name="marketing_accepted"])');
      },
      submit: 'Vreau cont Ghișeu',
      arrives: first,
    },
  ];
}

async function targets(origin: string): Promise<Target[]> {
  const flows = [readFlow('new-pfa.json'), readFlow('existing-pfa.json')];
  const list: Target[] = ['/login', '/register', '/register/account', '/password/forgot'].map((p) => ({ label: p, path: p, user: null }));
  // /register/account as a visitor who chose a type on /register sees it (without one it sends them back there).
  list[2].storage = { registration: JSON.stringify({ type: flows[0].registrationType }) };
  for (const flow of flows) {
    for (const step of flow.steps) {
      const { user, token } = await applicant(origin, flow);
      await api(origin, 'POST', '/__test/place-at-step', { step: step.id }, token);
      list.push({ label: `${step.path} (${step.id})`, path: step.path, user });
    }
  }
  const newFlow = flows[0];
  const pricing = newFlow.steps[newFlow.steps.length - 1];
  {
    const { user, token } = await applicant(origin, newFlow);
    await api(origin, 'POST', '/__test/place-at-step', { step: pricing.id }, token);
    list.push({ label: '/infiintare-pfa/status', path: '/infiintare-pfa/status', user });
  }
  {
    const { user, token } = await applicant(origin, newFlow);
    await api(origin, 'POST', '/__test/place-at-step', { step: pricing.id }, token);
    const prices = ['price_ghiseu_standard_monthly'];
    await api(origin, 'POST', '/api/registration/collect/partner-price', { selected_stripe_id: prices[0], current_step_identifier: pricing.id }, token);
    const { redirect_url } = await api<{ redirect_url: string }>(origin, 'POST', '/api/stripe/redirect', { selected_stripe_id: prices[0] }, token);
    const checkout = new URL(redirect_url, origin).pathname;
    list.push({ label: '/checkout/:paymentId', path: checkout, user });
  }
  return list;
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
async function asFirstVisit<T>(browser: Browser, origin: string, target: Target, visit: (page: Page) => Promise<T>): Promise<T> {
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
async function measureOnce(browser: Browser, port: number, origin: string, target: Target, lantern: boolean): Promise<Measure> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(browser, port, origin, target, lantern);
    } catch (error) {
      if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(String(error))) throw error;
      console.error(`  (${target.label}: Lighthouse did not record the load, run taken again: ${String(error).split('\n')[0]})`);
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.build) {
    const build = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--outDir', BENCH_DIST, '--emptyOutDir'], {
      cwd: root,
      // The build's log goes to stderr: stdout is the table.
      stdio: ['ignore', process.stderr, process.stderr],
    });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(port);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  try {
    if (args.journey) {
      const results: { start: JourneyStart; runs: JourneyRun[] }[] = [];
      for (const start of await journeys(origin, args.runs)) {
        const runs: JourneyRun[] = [];
        const visitor: Target = { label: start.label, path: start.path, user: null, storage: start.storage };
        for (let i = 0; i < args.runs; i++) runs.push(await asFirstVisit(browser, origin, visitor, (page) => runJourney(page, origin, start)));
        console.error(`  ${start.label}: usable after ${runs.map((r) => `${r.usableMs} ms`).join(', ')}`);
        results.push({ start, runs });
      }
      console.log(`\nFrom a guest page's button to the wizard's step (${PHONE_THROTTLING_TEXT}), ${THINK_MS / 1000} s on the form, median of ${args.runs}, ${new Date().toISOString().slice(0, 16)}Z\n`);
      for (const line of formatJourneys(results)) console.log(line);
      return;
    }
    let list = await targets(origin);
    if (args.only.length) list = list.filter((t) => args.only.some((o) => t.label.startsWith(o)));
    const rows: string[][] = [];
    const benchmarkIndexes: number[] = [];
    for (const target of list) {
      const runs: Measure[] = [];
      for (let i = 0; i < args.runs; i++) {
        const run = await measureOnce(browser, chrome.port, origin, target, args.lantern);
        if (run.lantern) console.error([`  ${target.label}, run ${i + 1}: perf ${run.perf}, LCP ${Math.round(run.lcp)} ms`, ...run.lantern].join('\n'));
        runs.push(run);
      }
      benchmarkIndexes.push(...runs.map((r) => r.benchmarkIndex));
      const m = {
        perf: median(runs.map((r) => r.perf)),
        lcp: median(runs.map((r) => r.lcp)),
        tbt: median(runs.map((r) => r.tbt)),
        a11y: median(runs.map((r) => r.a11y)),
        jsBytes: median(runs.map((r) => r.jsBytes)),
      };
      const row = [target.label, String(m.perf), `${(m.lcp / 1000).toFixed(1)} s`, `${Math.round(m.tbt)} ms`, String(m.a11y), `${(m.jsBytes / 1024).toFixed(1)} KiB`];
      console.error(`  ${row.join('  ')}  (perf of each run: ${runs.map((r) => r.perf).join(', ')})`);
      if (args.details) {
        const med = (pick: (r: Measure) => number) => Math.round(median(runs.map(pick)));
        const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.mainThread)))];
        const urls = [...new Set(runs.flatMap((r) => r.scripts.map((s) => s.url)))];
        const scriptMs = urls
          .map((url) => ({ url, ms: med((r) => r.scripts.find((s) => s.url === url)?.ms ?? 0) }))
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 5);
        console.error(`    long tasks: ${med((r) => r.longTasks.count)}, ${med((r) => r.longTasks.ms)} ms`);
        console.error(`    main thread: ${kinds.map((k) => `${k} ${med((r) => r.mainThread[k] ?? 0)} ms`).join(', ')}`);
        console.error(`    scripts: ${scriptMs.map((s) => `${s.url} ${s.ms} ms`).join(', ')}`);
        console.error(`    FCP ${(med((r) => r.fcp) / 1000).toFixed(1)} s; LCP element: ${[...new Set(runs.map((r) => r.lcpElement))].join(' | ')}; painted (unthrottled trace) at ${runs.map((r) => Math.round(r.observedLcp)).join(', ')} ms, first paint ${med((r) => r.observedFcp)} ms`);
      }
      if (args.trace) {
        const trace = await asFirstVisit(browser, origin, target, (page) => traceLoad(page, `${origin}${target.path}`, path.join(root, SOURCE_MAPS_DIR, 'assets')));
        for (const line of formatTrace(trace)) console.error(line);
      }
      rows.push(row);
    }
    const header = ['page', 'perf', 'LCP', 'TBT', 'a11y', 'JS transferred'];
    console.log(`\nLighthouse ${(JSON.parse(fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version} mobile (simulated throttling), median of ${args.runs}, ${new Date().toISOString().slice(0, 16)}Z, benchmarkIndex ${Math.round(median(benchmarkIndexes))} (${Math.round(Math.min(...benchmarkIndexes))}–${Math.round(Math.max(...benchmarkIndexes))})\n`);
    console.log(`| ${header.join(' | ')} |`);
    console.log(`|${header.map(() => '---').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } finally {
    await browser.disconnect();
    chrome.kill();
    server.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
