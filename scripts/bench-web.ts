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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { formatJourneys, PHONE_THROTTLING_TEXT, runJourney, THINK_MS, type JourneyRun, type JourneyStart } from './bench-journey.ts';
import { formatTrace, traceLoad } from './bench-trace.ts';
import { freePort, median } from './bench/common.ts';
import { asFirstVisit, measureOnce, type Measure } from './bench/web-lighthouse.ts';
import { journeys, targets, type Target } from './bench/web-pages.ts';
import { SOURCE_MAPS_DIR } from './vite-plugin-precompress.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const BENCH_DIST = 'build/bench-dist';

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
