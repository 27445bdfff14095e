/**
 * `npm run bench:web -- --lantern`: how Lighthouse came to a page's LCP (issue 14). Its mobile score
 * does not time the page: it simulates the load (Lantern: 150 ms round trips, 1.6 Mbps, the CPU ×4)
 * over the graph of the observed one, and LCP is the end of the last request or task of that graph
 * that the observed LCP paint waited for, as Lantern decides: every request that had finished before
 * that paint, at any priority (a module script counts however late it runs). This lists, for one run,
 * those requests with their simulated start and end, beside the observed paint: what to make smaller,
 * fewer or later. Node's `lighthouse` package computes it again from the run's artifacts (its trace
 * and DevTools log), with the run's own settings.
 */
import type { RunnerResult } from 'lighthouse';
import { LoadSimulator } from 'lighthouse/core/computed/load-simulator.js';
import { PageDependencyGraph } from 'lighthouse/core/computed/page-dependency-graph.js';
import { ProcessedNavigation } from 'lighthouse/core/computed/processed-navigation.js';
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';

/** A node of Lantern's graph (the fields read here). */
interface GraphNode {
  type: 'network' | 'cpu';
  request?: { url: string; transferSize: number; priority: string };
}

interface Simulation {
  timeInMs: number;
  nodeTimings: Map<GraphNode, { startTime: number; endTime: number }>;
}

export interface LanternLcp {
  /** The observed (unthrottled) LCP paint, ms after the navigation. */
  observedMs: number;
  /** Lantern's optimistic and pessimistic estimates (Lighthouse's LCP is their mean, at least its FCP). */
  optimisticMs: number;
  pessimisticMs: number;
  /** The requests of the optimistic graph, by simulated start. */
  requests: { path: string; bytes: number; priority: string; startMs: number; endMs: number }[];
}

/** Lantern's LCP graphs of one Lighthouse run, simulated again. */
export async function lanternLcp(result: RunnerResult): Promise<LanternLcp> {
  const { artifacts, lhr } = result;
  const context = { computedCache: new Map(), settings: lhr.configSettings };
  const data = { trace: artifacts.Trace, devtoolsLog: artifacts.DevtoolsLog, gatherContext: artifacts.GatherContext, settings: lhr.configSettings, URL: artifacts.URL, SourceMaps: [], simulator: null };
  // Lighthouse's computed artifacts are typed for its own build; the calls are the ones lantern-metric.js makes.
  /* eslint-disable @typescript-eslint/no-explicit-any */
  const graph = await PageDependencyGraph.request({ ...data, fromTrace: false } as any, context as any);
  const navigation = await ProcessedNavigation.request(artifacts.Trace as any, context as any);
  const simulator = (await LoadSimulator.request(data as any, context as any)) as unknown as { simulate(graph: unknown, options: { label: string }): Simulation };
  const LCP = Lantern.Metrics.LargestContentfulPaint as any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const optimistic = simulator.simulate(LCP.getOptimisticGraph(graph, navigation), { label: 'bench-optimistic-lcp' });
  const pessimistic = simulator.simulate(LCP.getPessimisticGraph(graph, navigation), { label: 'bench-pessimistic-lcp' });
  const requests = [...optimistic.nodeTimings.entries()]
    .filter(([node]) => node.type === 'network' && node.request)
    .map(([node, t]) => ({
      path: node.request!.url.replace(/^https?:\/\/[^/]+/, ''),
      bytes: node.request!.transferSize,
      priority: node.request!.priority,
      startMs: t.startTime,
      endMs: t.endTime,
    }))
    .sort((a, b) => a.startMs - b.startMs);
  return {
    observedMs: (navigation as { timings: { largestContentfulPaint?: number } }).timings.largestContentfulPaint ?? NaN,
    optimisticMs: optimistic.timeInMs,
    pessimisticMs: pessimistic.timeInMs,
    requests,
  };
}

/** The simulation as lines for stderr. */
export function formatLanternLcp(lcp: LanternLcp): string[] {
  const ms = (n: number) => `${Math.round(n)} ms`;
  return [
    `    Lantern LCP: optimistic ${ms(lcp.optimisticMs)}, pessimistic ${ms(lcp.pessimisticMs)} (the observed paint at ${ms(lcp.observedMs)}); the requests it waited for:`,
    ...lcp.requests.map((r) => `      ${ms(r.startMs).padStart(8)} → ${ms(r.endMs).padStart(8)}  ${(r.bytes / 1024).toFixed(1).padStart(6)} KiB  ${r.priority.padEnd(8)} ${r.path}`),
  ];
}
