/**
 * One autocannon run of `npm run bench:api` (scripts/bench-api.ts): throughput, latencies and the
 * server's CPU time per call.
 */
import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { percentiles } from './common.ts';
import { CONNECTIONS, DURATION } from './api-settings.ts';

export interface LoadRow {
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** The 1-minute load average when the run ended. */
  load: number;
  /** The server process's CPU time per answered call (µs; Linux only, 10 ms resolution over the run). */
  cpuUs: number | null;
}

/**
 * CPU time (user + system, ms) a process has used so far, from Linux's /proc (null elsewhere): the
 * server's CPU per call moves far less with the machine's load than its throughput does.
 */
function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export async function load(
  name: string,
  url: string,
  options: { method?: string; body?: string; tokens?: string[]; connections?: number; serverPid?: number } = {},
): Promise<LoadRow> {
  const cpuBefore = cpuMs(options.serverPid);
  const latencies: number[] = [];
  let next = 0;
  const tracker = autocannon({
    url,
    connections: options.connections ?? CONNECTIONS,
    duration: DURATION,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.body ? { 'content-type': 'application/json' } : {},
    setupClient: options.tokens
      ? (client) => {
          const token = options.tokens![next++ % options.tokens!.length];
          client.setHeaders({ authorization: `Bearer ${token}`, ...(options.body ? { 'content-type': 'application/json' } : {}) });
        }
      : undefined,
  });
  tracker.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await tracker;
  const p = percentiles(latencies);
  const cpuAfter = cpuMs(options.serverPid);
  const cpuUs = cpuBefore === null || cpuAfter === null || !result.requests.total ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { name, rps: result.requests.total / result.duration, ...p, non2xx: result.non2xx, errors: result.errors + result.timeouts, load: os.loadavg()[0], cpuUs };
}
