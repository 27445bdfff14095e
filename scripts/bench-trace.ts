/**
 * `npm run bench:web -- --trace`: what a page's TBT is made of (issue 14). After a page's Lighthouse
 * runs, one more load, unthrottled, with Chromium's trace and a sampled CPU profile (CDP `Tracing`,
 * `Profiler`), and two lists on stderr:
 * - the renderer's main-thread tasks of 15 ms or more (Lighthouse counts each task ×4, and its time
 *   above 50 ms as blocking), each with what filled it (module evaluation, timers, layout…);
 * - whose code took the main thread's time: the profile's self time by package (`react-dom`,
 *   `@chakra-ui/react`) or app folder (`src/shared`, `widgets/id-capture`), through the build's
 *   source maps in build/sourcemaps/ (moved there by scripts/vite-plugin-precompress.ts).
 * On this machine's own clock: compare pages and builds within one run, as with the scores.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { SourceMapConsumer } from 'source-map-js';

/** A trace event as CDP's `Tracing.dataCollected` reports it (the fields read here). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string }; beginData?: { url?: string } };
}

/** CDP's `Profiler.Profile` (the fields read here). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface TraceSummary {
  /** ms after the document's request. */
  firstPaint: number;
  lcp: number;
  tasks: { start: number; ms: number; kind: string }[];
  /** Self time (ms) by package or app folder, largest first. */
  code: { owner: string; ms: number }[];
}

/** The tasks worth a line (from the document's request on): 15 ms unthrottled is 60 ms at Lighthouse's 4× slowdown, 10 ms of it blocking. */
export const TASK_MS = 15;

/** What a task's time went to, by its children's trace event names. */
const KINDS: Record<string, string> = {
  'v8.evaluateModule': 'module evaluation',
  EvaluateScript: 'script evaluation',
  FunctionCall: 'JS callback',
  TimerFire: 'timer',
  RunMicrotasks: 'microtasks',
  FireAnimationFrame: 'animation frame',
  ParseHTML: 'HTML parsing',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  Paint: 'paint',
  MinorGC: 'GC',
  MajorGC: 'GC',
};

/** The main thread's tasks of `TASK_MS` or more, each named by the kind that filled most of it. */
export function longTasks(events: TraceEvent[], main: { pid: number; tid: number }, t0: number): TraceSummary['tasks'] {
  const onMain = events.filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid);
  return onMain
    .filter((e) => e.name === 'RunTask' && e.ts >= t0 && (e.dur ?? 0) >= TASK_MS * 1000)
    .sort((a, b) => a.ts - b.ts)
    .map((task) => {
      const end = task.ts + (task.dur ?? 0);
      const byKind = new Map<string, number>();
      for (const child of onMain) {
        const kind = KINDS[child.name];
        if (!kind || child === task || child.ts < task.ts || child.ts + (child.dur ?? 0) > end) continue;
        byKind.set(kind, (byKind.get(kind) ?? 0) + (child.dur ?? 0));
      }
      // Nested kinds (a timer's microtasks) count in both: the largest names the task.
      const [kind] = [...byKind.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['other'];
      return { start: (task.ts - t0) / 1000, ms: (task.dur ?? 0) / 1000, kind };
    });
}

/**
 * Who owns a source path: the package under node_modules (`@chakra-ui/react`, `react-dom`), else the
 * app folder (`src/shared`, `widgets/id-capture`), else the path itself.
 */
export function owner(source: string): string {
  const packagePath = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (packagePath) return packagePath[1];
  const app = /(?:^|\/)((?:src|widgets|locales|schemas|flows)\/[^/]+)/.exec(source);
  return app ? app[1].replace(/\.[jt]sx?$/, '') : source;
}

/** Maps an asset's generated position to its source through build/sourcemaps/, when the map is there. */
export function sourceMaps(mapsDir: string): (file: string, line: number, column: number) => string | null {
  const consumers = new Map<string, SourceMapConsumer | null>();
  return (file, line, column) => {
    if (!consumers.has(file)) {
      const mapFile = path.join(mapsDir, `${file}.map`);
      consumers.set(file, fs.existsSync(mapFile) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(mapFile, 'utf8'))) : null);
    }
    const consumer = consumers.get(file);
    if (!consumer) return null;
    // CDP's lines are 0-based, source maps' 1-based; a column inside a mapping's gap maps to the next.
    let position = consumer.originalPositionFor({ line: line + 1, column });
    if (!position.source) position = consumer.originalPositionFor({ line: line + 1, column, bias: SourceMapConsumer.LEAST_UPPER_BOUND });
    return position.source;
  };
}

/** The profile's self time between `from` and `to` (µs, the trace's clock), by owner of the code. */
export function selfTimeByOwner(profile: CpuProfile, from: number, to: number, origin: string, map: ReturnType<typeof sourceMaps>): TraceSummary['code'] {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byOwner = new Map<string, number>();
  let ts = profile.startTime;
  profile.samples.forEach((id, i) => {
    ts += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const frame = nodes.get(id);
    if (!frame || ts < from || ts > to || frame.functionName === '(idle)') return;
    let who: string;
    if (!frame.url) who = frame.functionName === '(garbage collector)' ? 'GC' : frame.functionName === '(program)' ? '(browser: parsing, style, layout…)' : '(native)';
    else {
      const asset = frame.url.startsWith(origin) ? frame.url.slice(origin.length).replace(/^\/assets\//, '') : frame.url;
      const source = map(asset, frame.lineNumber, frame.columnNumber);
      who = source ? owner(source) : asset;
    }
    byOwner.set(who, (byOwner.get(who) ?? 0) + ms);
  });
  return [...byOwner.entries()].map(([who, ms]) => ({ owner: who, ms })).sort((a, b) => b.ms - a.ms);
}

/**
 * One load of `url` in `page`, traced and profiled. `page` should be the first of a fresh browser
 * context (a new renderer process: V8 keeps the code it compiled for an origin while its renderer
 * lives), signed in as the target wants and with an empty HTTP cache: a first visit.
 */
export async function traceLoad(page: Page, url: string, mapsDir: string): Promise<TraceSummary> {
  const cdp = await page.createCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (data: { value: TraceEvent[] }) => events.push(...data.value));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,loading', transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  await page.goto(url, { waitUntil: 'networkidle0', timeout: 60_000 });
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();

  const document = events.find((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url === url);
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
  if (!document || !parse) throw new Error(`trace: no request or parsing of ${url} in the trace`);
  const t0 = document.ts;
  const onRenderer = (name: string) => events.filter((e) => e.name === name && e.pid === parse.pid).map((e) => (e.ts - t0) / 1000);
  // A fold, not Math.max(...): a trace holds more events than a call takes arguments.
  const end = events.reduce((last, e) => (e.pid === parse.pid ? Math.max(last, e.ts + (e.dur ?? 0)) : last), t0);
  const { origin } = new URL(url);
  return {
    firstPaint: Math.min(...onRenderer('firstContentfulPaint')),
    lcp: Math.max(...onRenderer('largestContentfulPaint::Candidate')),
    tasks: longTasks(events, parse, t0),
    code: selfTimeByOwner(profile, t0, end, origin, sourceMaps(mapsDir)),
  };
}

/** The summary as lines for stderr. */
export function formatTrace(trace: TraceSummary): string[] {
  const total = trace.tasks.reduce((sum, t) => sum + t.ms, 0);
  const blocking = trace.tasks.reduce((sum, t) => sum + Math.max(0, t.ms * 4 - 50), 0);
  return [
    `    trace (one load, unthrottled): first contentful paint ${Math.round(trace.firstPaint)} ms, last LCP candidate ${Math.round(trace.lcp)} ms; ` +
      `${trace.tasks.length} tasks ≥ ${TASK_MS} ms, ${Math.round(total)} ms (×4 − 50 ms each: ${Math.round(blocking)} ms)`,
    ...trace.tasks.map((t) => `      at ${Math.round(t.start)} ms: ${Math.round(t.ms)} ms, ${t.kind}`),
    `    self time by code: ${trace.code
      .filter((c) => c.ms >= 1)
      .slice(0, 12)
      .map((c) => `${c.owner} ${Math.round(c.ms)} ms`)
      .join(', ')}`,
  ];
}
