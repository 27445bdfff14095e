/**
 * `npm run bench:api` — the API half of issue 14's benchmarks. Prints figures; asserts nothing.
 *
 * For PGlite (the default, a fresh DATA_DIR on disk) and, when DATABASE_URL is set, PostgreSQL (a
 * fresh database made next to the one named, dropped afterwards):
 *  1. the app (`server/server.ts`) and a bare Fastify route, each as a child process on a free
 *     port of 127.0.0.1;
 *  2. autocannon, 50 connections × 10 s each: the bare route (before and after the app's calls: the
 *     ratio is taken against the mean of both), the app's own constant route (`GET /api/health/live`:
 *     the ceiling its global hooks leave any route), `GET /api/registration/open` (one
 *     applicant per connection) and a step submit that can be repeated (`POST
 *     /api/registration/existing/collect/partner-price`: the pricing step keeps the request where
 *     it is, one applicant per connection); req/s, p50/p95/p99, the ratio app/bare and the server
 *     process's CPU time per call (Linux: /proc), which the machine's load moves less than req/s;
 *  3. one applicant's clicks: 100 step submits one after the other;
 *  4. 200 applicants started at once: register → open → questionnaire → identity session → one
 *     photo upload; per call p50/p95/p99, errors and the total time.
 *
 * Only 127.0.0.1, bounded loops. Knobs: BENCH_DURATION (s, 10), BENCH_CONNECTIONS (50),
 * BENCH_APPLICANTS (200), BENCH_ONLY (`pglite` or `postgres`), BENCH_INSTANCES (1; 2 on PostgreSQL: a
 * second app process on the same database, DATA_DIR and — with REDIS_URL — Redis, and each applicant's
 * calls of step 4 alternate between the two, as behind a round-robin proxy). The app child inherits the
 * environment; the per-address limits (REGISTER_LIMIT_PER_HOUR, …) are set generous unless given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 200);
const INSTANCES = Math.max(1, Math.min(2, Number(process.env.BENCH_INSTANCES ?? 1) || 1));
const SEQUENTIAL_SUBMITS = 100;
const HOST = '127.0.0.1';

const NEW_OPEN = '/api/registration/open';
const EXISTING_OPEN = '/api/registration/existing/open';
const PRICE_SUBMIT = '/api/registration/existing/collect/partner-price';
const PRICING_STEP = 'existing-company-step-4';
const LIVE = '/api/health/live';

interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Child {
  process: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** Starts a Node child and waits (at most 3 minutes) until `healthPath` answers 200. */
async function startChild(label: string, args: string[], env: Record<string, string>, port: number, healthPath: string): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const base = `http://${HOST}:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${label} did not start: ${stderr}`);
    }
    const ok = await fetch(base + healthPath).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    process: child,
    base,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The server's per-address limits (server/config.ts), far above what one run sends from one address. */
const BENCH_LIMITS = Object.fromEntries(
  ['REGISTER_LIMIT_PER_HOUR', 'FORGOT_PASSWORD_LIMIT_PER_HOUR', 'IDENTITY_SESSION_LIMIT_PER_HOUR', 'UPLOAD_LIMIT_PER_HOUR', 'COMPANY_LOOKUP_LIMIT_PER_HOUR']
    .filter((name) => process.env[name] === undefined)
    .map((name) => [name, '1000000']),
);

const BARE_SERVER = `
import Fastify from 'fastify';
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ message: '', payload: { ok: true } }));
await app.listen({ port: Number(process.env.PORT), host: '${HOST}' });
`;

interface CallResult {
  status: number;
  body: { message?: string; payload?: unknown } | null;
  ms: number;
}

async function call(base: string, method: string, url: string, options: { token?: string; json?: unknown; form?: FormData } = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) body = options.form;
  const started = performance.now();
  const res = await fetch(base + url, { method, headers, body });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: CallResult['body'] = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, ms };
}

async function ok<R extends CallResult>(result: Promise<R>, what: string): Promise<R> {
  const r = await result;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

async function register(base: string, partnerId: number, type: 1 | 2): Promise<CallResult & { token?: string }> {
  const r = await call(base, 'POST', '/api/register', {
    json: {
      email: `bench.${randomBytes(6).toString('hex')}@exemplu.ro`,
      password: 'parola-de-bench-1',
      phone: '0712345678',
      referral_code: null,
      cookies: [],
      marketing_accepted: true,
      registration_type: type,
      partner_id: partnerId,
    },
  });
  const payload = r.body?.payload as { access_token?: string } | undefined;
  return { ...r, token: payload?.access_token };
}

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(task))));
  return out;
}

interface LoadRow {
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

async function load(
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

/** A phone photo as the browser sends it (scaled to 1920 px on its longest side, JPEG). */
/** Round trips of GETs taken one after the other, cycling through `urls` (after one warm-up pass). */
async function searchTimes(base: string, urls: string[], calls = 210): Promise<number[]> {
  for (const url of urls) await ok(call(base, 'GET', url), url);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push((await ok(call(base, 'GET', urls[i % urls.length]), urls[i % urls.length])).ms);
  return times;
}

async function samplePhoto(): Promise<Buffer> {
  const { data, info } = await sharp({ create: { width: 1920, height: 1440, channels: 3, background: '#8a9bb0', noise: { type: 'gaussian', mean: 120, sigma: 25 } } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: info }).blur(1.2).jpeg({ quality: 82 }).toBuffer();
}

const SCENARIO_CALLS = ['register', 'open', 'questionnaire', 'identity session', 'upload'] as const;
type ScenarioCall = (typeof SCENARIO_CALLS)[number];

async function applicant(bases: string[], partnerId: number, photo: Buffer, times: Record<ScenarioCall, number[]>): Promise<string | null> {
  // Each call goes to the next instance in turn (one instance: always the same).
  let turn = 0;
  const next = () => bases[turn++ % bases.length];
  const step = async (name: ScenarioCall, run: () => Promise<CallResult>) => {
    const r = await run();
    times[name].push(r.ms);
    if (r.status !== 200) throw new Error(`${name}: ${r.status} ${r.body?.message ?? ''}`);
    return r;
  };
  try {
    const reg = await register(next(), partnerId, 2);
    times.register.push(reg.ms);
    if (reg.status !== 200 || !reg.token) throw new Error(`register: ${reg.status} ${reg.body?.message ?? ''}`);
    const token = reg.token;
    await step('open', () => call(next(), 'GET', NEW_OPEN, { token }));
    await step('questionnaire', () =>
      call(next(), 'POST', NEW_OPEN, { token, json: { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] } }),
    );
    const session = await step('identity session', () => call(next(), 'POST', '/api/veriff/create-veriff-session', { token, json: {} }));
    const sessionId = (session.body?.payload as { session_id: string }).session_id;
    await step('upload', () => {
      const form = new FormData();
      form.append('session_id', sessionId);
      form.append('context', 'document-front');
      form.append('media_file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'buletin-fata.jpg');
      return call(next(), 'POST', '/api/veriff/upload-image', { token, form });
    });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const ms = (n: number) => (Number.isFinite(n) ? (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`) : '—');

async function benchDatabase(kind: 'pglite' | 'postgres', databaseUrl: string | null, photo: Buffer) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-bench-'));
  const [appPort, barePort] = [await freePort(), await freePort()];
  const bare = await startChild('bare Fastify', ['--input-type=module', '-e', BARE_SERVER], { PORT: String(barePort) }, barePort, '/bare');
  const app = await startChild(
    'app',
    ['--import', 'tsx', 'server/server.ts'],
    {
      PORT: String(appPort),
      HOST,
      DATA_DIR: dataDir,
      SERVE_STATIC: '0',
      LOG: '0',
      // Development mode: the embedded identity simulator and built-in checkout (production mode
      // refuses to start without Veriff, Stripe, S3, SMTP and Redis, none of which the bench has).
      NODE_ENV: 'development',
      // Every applicant of the bench comes from 127.0.0.1: generous per-address limits (the
      // environment still wins, to measure with the real ones).
      ...BENCH_LIMITS,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
    },
    appPort,
    '/api/partner/index',
  );
  // BENCH_INSTANCES=2: a second app process beside the first, sharing its database and files.
  const portB = INSTANCES === 2 && databaseUrl ? await freePort() : 0;
  const second = portB
    ? await startChild(
        'app B',
        ['--import', 'tsx', 'server/server.ts'],
        { PORT: String(portB), HOST, DATA_DIR: dataDir, SERVE_STATIC: '0', LOG: '0', NODE_ENV: 'development', ...BENCH_LIMITS, DATABASE_URL: databaseUrl! },
        portB,
        '/api/partner/index',
      )
    : null;
  try {
    const base = app.base;
    const partners = (await ok(call(base, 'GET', '/api/partner/index'), 'partners')).body?.payload as { id: number; slug: string }[];
    const partnerId = partners.find((p) => p.slug === 'neafiliat')!.id;

    // Applicants for the load runs: one per connection, and one more for the calls in a row (the
    // load's last requests may still be running when autocannon stops).
    const slots = Array.from({ length: CONNECTIONS + 1 }, (_, i) => i);
    const readers = await inBatches(slots, 10, async () => {
      const { token } = await ok(register(base, partnerId, 2), 'register');
      await ok(call(base, 'GET', NEW_OPEN, { token }), 'open');
      return token!;
    });
    let stripeId = '';
    const submitters = await inBatches(slots, 10, async () => {
      const { token } = await ok(register(base, partnerId, 1), 'register');
      await ok(call(base, 'GET', EXISTING_OPEN, { token }), 'existing open');
      await ok(call(base, 'POST', EXISTING_OPEN, { token, json: { current_step_identifier: 'existing-company-step-1', reasons: ['niciuna'] } }), 'questionnaire');
      await ok(call(base, 'POST', '/api/registration/existing/collect/company', { token, json: { current_step_identifier: 'existing-company-step-2', fiscal_code: '42157397' } }), 'fiscal code');
      const at = await ok(call(base, 'POST', '/api/registration/existing/confirm/company', { token, json: { current_step_identifier: 'existing-company-step-3' } }), 'confirm company');
      const payload = at.body?.payload as { step: string; partner: { prices: { stripe_id: string }[] } };
      if (payload.step !== PRICING_STEP) throw new Error(`expected the pricing step, at ${payload.step}`);
      stripeId = payload.partner.prices[0].stripe_id;
      return token!;
    });
    const [alone, aloneReader] = [submitters.pop()!, readers.pop()!];
    const submitBody = JSON.stringify({ current_step_identifier: PRICING_STEP, selected_stripe_id: stripeId });

    // The bare route runs before and after the app's calls and the ratio is taken against the mean of
    // both: on a shared machine the load moves within a run, and one bare figure taken before the
    // app's would compare them with another moment's machine.
    const rows: LoadRow[] = [];
    const [barePid, appPid] = [bare.process.pid, app.process.pid];
    rows.push(await load('bare Fastify GET /bare (before)', `${bare.base}/bare`, { serverPid: barePid }));
    // The ceiling of any route of the app: a constant answer through all of its global hooks.
    rows.push(await load(`app's own constant route GET ${LIVE}`, base + LIVE, { serverPid: appPid }));
    rows.push(await load(`GET ${NEW_OPEN}`, base + NEW_OPEN, { tokens: readers, serverPid: appPid }));
    rows.push(await load(`POST ${PRICE_SUBMIT}`, base + PRICE_SUBMIT, { method: 'POST', body: submitBody, tokens: submitters, serverPid: appPid }));
    rows.push(await load('bare Fastify GET /bare (after)', `${bare.base}/bare`, { serverPid: barePid }));

    // One applicant's clicks, one after the other.
    const single: number[] = [];
    for (let i = 0; i < SEQUENTIAL_SUBMITS; i++) {
      single.push((await ok(call(base, 'POST', PRICE_SUBMIT, { token: alone, json: JSON.parse(submitBody) }), 'submit')).ms);
    }
    const singleOpen: number[] = [];
    for (let i = 0; i < SEQUENTIAL_SUBMITS; i++) singleOpen.push((await ok(call(base, 'GET', NEW_OPEN, { token: aloneReader }), 'open')).ms);

    // The registers with their full data (issue 31): a locality search over SIRUTA and a CAEN search, one
    // after the other, pages of 25, searches an applicant types (a village, a commune, no text, no diacritics).
    const placeSearches = await searchTimes(base, [
      '/api/nomenclature/city/index/0/25?county_id=1&search_term=rogoz',
      '/api/nomenclature/city/index/0/25?county_id=1&search_term=albac',
      '/api/nomenclature/city/index/0/25?county_id=1',
      '/api/nomenclature/city/index/25/25?county_id=22',
      '/api/nomenclature/city/index/0/25?county_id=33&search_term=valea',
      '/api/nomenclature/city/index/0/25?county_id=40&search_term=sector',
      `/api/nomenclature/city/index/0/25?county_id=12&search_term=${encodeURIComponent('floresti')}`,
    ]);
    const caenSearches = await searchTimes(base, [
      '/api/nomenclature/code/index/0/25?search_term=6201',
      '/api/nomenclature/code/index/0/25?search_term=620',
      `/api/nomenclature/code/index/0/25?search_term=${encodeURIComponent('consultanta')}`,
      '/api/nomenclature/code/index/0/25?search_term=4791',
    ]);

    // 200 applicants at once.
    const times = Object.fromEntries(SCENARIO_CALLS.map((c) => [c, [] as number[]])) as Record<ScenarioCall, number[]>;
    const started = performance.now();
    const outcomes = await Promise.all(Array.from({ length: APPLICANTS }, () => applicant(second ? [base, second.base] : [base], partnerId, photo, times)));
    const total = performance.now() - started;
    const errors = outcomes.filter((o): o is string => o !== null);

    const bareRps = (rows[0].rps + rows[rows.length - 1].rps) / 2;
    console.log(`\n## ${kind === 'pglite' ? 'PGlite (embedded, DATA_DIR on disk)' : 'PostgreSQL'} — ${CONNECTIONS} connections × ${DURATION} s\n`);
    console.log('| call | req/s | p50 | p95 | p99 | non-2xx | errors | app/bare | server CPU per call | load average (1 min) |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      const cpu = r.cpuUs === null ? '—' : `${r.cpuUs.toFixed(0)} µs`;
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.non2xx} | ${r.errors} | ${(r.rps / bareRps).toFixed(3)} | ${cpu} | ${r.load.toFixed(2)} |`);
    }
    console.log(`\napp/bare: against the mean of the two bare runs (${bareRps.toFixed(0)} req/s).`);
    const s = percentiles(single);
    const o = percentiles(singleOpen);
    console.log(`\nOne applicant alone, ${SEQUENTIAL_SUBMITS} calls in a row: step submit p50 ${ms(s.p50)} / p95 ${ms(s.p95)} / p99 ${ms(s.p99)}; GET open p50 ${ms(o.p50)} / p95 ${ms(o.p95)} / p99 ${ms(o.p99)}`);
    for (const [what, list] of [['locality search (SIRUTA, 16,618 localities)', placeSearches], ['CAEN search (Rev.3 with the Rev.2 correspondence)', caenSearches]] as const) {
      const p = percentiles(list);
      console.log(`${what}, ${list.length} calls in a row, pages of 25: p50 ${ms(p.p50)} / p95 ${ms(p.p95)} / p99 ${ms(p.p99)} (round trip on loopback)`);
    }
    const across = second ? ', across two app instances (each applicant\'s calls alternate between them)' : '';
    console.log(`\n${APPLICANTS} applicants started at once (photo ${(photo.length / 1024).toFixed(0)} KiB)${across}: total ${ms(total)}, ${errors.length} errors`);
    console.log('\n| call | n | p50 | p95 | p99 |');
    console.log('|---|---|---|---|---|');
    for (const c of SCENARIO_CALLS) {
      const p = percentiles(times[c]);
      console.log(`| ${c} | ${times[c].length} | ${ms(p.p50)} | ${ms(p.p95)} | ${ms(p.p99)} |`);
    }
    if (errors.length) {
      const counts = new Map<string, number>();
      for (const e of errors) counts.set(e, (counts.get(e) ?? 0) + 1);
      console.log('\nErrors:');
      for (const [e, n] of counts) console.log(`  ${n} × ${e}`);
    }
  } finally {
    await second?.stop();
    await app.stop();
    await bare.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function withFreshPostgres<T>(url: string, run: (url: string) => Promise<T>): Promise<T> {
  const name = `ghiseu_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    return await run(target.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch((e) => console.error(`could not drop ${name}: ${e}`));
    await admin.end();
  }
}

const photo = await samplePhoto();
console.log(`bench:api ${new Date().toISOString()} — Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
const only = process.env.BENCH_ONLY;
if (only !== 'postgres') await benchDatabase('pglite', null, photo);
if (process.env.DATABASE_URL && only !== 'pglite') await withFreshPostgres(process.env.DATABASE_URL, (url) => benchDatabase('postgres', url, photo));
console.log(`\nload average at the end: ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}`);
