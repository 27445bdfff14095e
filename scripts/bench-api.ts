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
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applicant, call, inBatches, ok, register, samplePhoto, SCENARIO_CALLS, searchTimes, type ScenarioCall } from './bench/api-calls.ts';
import { load, type LoadRow } from './bench/api-load.ts';
import { BARE_SERVER, BENCH_LIMITS, startChild } from './bench/api-processes.ts';
import { APPLICANTS, CONNECTIONS, DURATION, EXISTING_OPEN, HOST, INSTANCES, LIVE, NEW_OPEN, PRICE_SUBMIT, PRICING_STEP, SEQUENTIAL_SUBMITS } from './bench/api-settings.ts';
import { freePort, percentiles } from './bench/common.ts';

const ms = (n: number) => (Number.isFinite(n) ? (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`) : '—');

async function benchDatabase(kind: 'pglite' | 'postgres', databaseUrl: string | null, photo: Buffer) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-bench-'));
  const [appPort, barePort] = [await freePort(HOST), await freePort(HOST)];
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
  const portB = INSTANCES === 2 && databaseUrl ? await freePort(HOST) : 0;
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
