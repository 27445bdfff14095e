import { count, eq, inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db';
import { auditLog, fileDeletions, files, identitySessions, jobRuns, outbox, registrationRequests, retainedRecords, retentionNotices, tokens, userMeta, users } from '../../server/db/schema';
import { claimJobRun, runScheduledRetention } from '../../server/privacy/retention-schedule';
import { newStorageKey } from '../../server/storage/storage';
import { main, parseCommand } from '../../scripts/ops';
import { auth, registerUser, testConfig } from './helpers';
import { DAY, later, linesOf, OPERATOR, OPS_TOKEN, retentionApp } from './retention-setup';

/** Here: a dry run, what every run deletes, the daily schedule across instances, the ops route and `npm run ops -- retention`. */
let database: Database;
let app: FastifyInstance;
let ownUrl: URL | null;
const { retention, userExists, openRequest } = retentionApp('_retention_runs', (made) => ({ database, app, ownUrl } = made));

describe('a dry run', () => {
  async function snapshot() {
    const all = async (table: PgTable) => (await app.db.select({ n: count() }).from(table))[0].n;
    return {
      users: await app.db.select().from(users).orderBy(users.id),
      requests: await app.db.select().from(registrationRequests).orderBy(registrationRequests.id),
      tokens: await all(tokens),
      outbox: await all(outbox),
      notices: await all(retentionNotices),
      files: await all(files),
      meta: await all(userMeta),
      sessions: await app.db.select().from(identitySessions).orderBy(identitySessions.id),
      retained: await all(retainedRecords),
      queued: await all(fileDeletions),
    };
  }

  it('changes nothing and lists what would go and why', async () => {
    const idle = await registerUser(app);
    const lost = await registerUser(app);
    await openRequest(lost);
    expect((await app.inject({ method: 'POST', url: '/api/mark-as-lost', payload: { reason_identifier: 'vinde-produse' }, headers: auth(lost.token) })).statusCode).toBe(200);
    const t0 = new Date();

    const before = await snapshot();
    let report = await retention(later(t0, 200), true);
    expect(report.dry_run).toBe(true);
    expect(linesOf(report, idle.email)).toEqual([expect.objectContaining({ action: 'warn', why: expect.stringContaining('avertizare') })]);
    expect(linesOf(report, lost.email)).toEqual([expect.objectContaining({ action: 'lost', goes: expect.arrayContaining([expect.any(String)]) })]);
    expect(await snapshot()).toEqual(before);

    // Warned for real, then a dry run past the warning period: the erasure it would make, with what goes.
    await retention(later(t0, 167));
    const warned = await snapshot();
    report = await retention(later(t0, 200), true);
    const [erase] = linesOf(report, idle.email);
    expect(erase).toMatchObject({ action: 'erase' });
    expect(erase.goes.join(' ')).toContain('contul');
    expect(await snapshot()).toEqual(warned);
    expect(await userExists(idle)).toBe(true);
  });
});

describe('every run', () => {
  it('deletes kept records past keep_until with their file, old mails of erased addresses, and files left in the queue', async () => {
    const expiredKey = newStorageKey();
    const keptKey = newStorageKey();
    const leftover = newStorageKey();
    for (const key of [expiredKey, keptKey, leftover]) await app.storage.put(key, Buffer.from('%PDF-1.4 contract'), 'application/pdf');
    await app.db.insert(retainedRecords).values([
      { kind: 'contract', subject: 'plecat@exemplu.ro', data: {}, storageKey: expiredKey, contentType: 'application/pdf', keepUntil: '2020-12-31' },
      { kind: 'payment', subject: 'plecat@exemplu.ro', data: {}, keepUntil: '2020-12-31' },
      { kind: 'contract', subject: 'ramas@exemplu.ro', data: {}, storageKey: keptKey, contentType: 'application/pdf', keepUntil: '2999-12-31' },
    ]);
    await app.db.insert(fileDeletions).values({ storageKey: leftover });
    const present = await registerUser(app);
    const old = new Date(Date.now() - 40 * DAY);
    const recent = new Date(Date.now() - 5 * DAY);
    await app.db.insert(outbox).values([
      { to: 'plecat@exemplu.ro', subject: 'vechi', text: 't', html: 'h', createdAt: old, sentAt: old },
      { to: 'plecat@exemplu.ro', subject: 'recent', text: 't', html: 'h', createdAt: recent, sentAt: recent },
      { to: present.email, subject: 'vechi', text: 't', html: 'h', createdAt: old, sentAt: old },
    ]);

    const report = await retention(new Date());
    expect(linesOf(report, 'plecat@exemplu.ro').map((l) => l.action)).toEqual(['retained_record', 'retained_record']);
    expect(report.counts).toMatchObject({ retained_records: 2, mails_deleted: 1 });
    expect((await app.db.select().from(retainedRecords)).map((r) => r.subject)).toEqual(['ramas@exemplu.ro']);
    expect(await app.storage.get(expiredKey)).toBeNull();
    expect(await app.storage.get(keptKey)).not.toBeNull();
    expect(await app.storage.get(leftover)).toBeNull();
    expect(await app.db.select().from(fileDeletions)).toEqual([]);
    const mails = await app.db.select({ to: outbox.to, subject: outbox.subject }).from(outbox).where(inArray(outbox.subject, ['vechi', 'recent']));
    expect(mails.sort((a, b) => a.to.localeCompare(b.to))).toEqual(
      [
        { to: 'plecat@exemplu.ro', subject: 'recent' },
        { to: present.email, subject: 'vechi' },
      ].sort((a, b) => a.to.localeCompare(b.to)),
    );
  });
});

describe('the schedule: one run a day across instances', () => {
  it('two instances on one database claim the same day: the job runs once', async () => {
    // On PostgreSQL the other instance has its own pool, as another process would (PGlite is one process's database).
    const otherDatabase = ownUrl ? await openDatabase({ databaseUrl: ownUrl.toString(), dataDir: ':memory:' }) : database;
    const other = await buildApp(testConfig({ opsToken: OPS_TOKEN, databaseUrl: ownUrl?.toString() ?? null }), { database: otherDatabase });
    try {
      await other.ready();
      const now = new Date();
      const results = await Promise.all([runScheduledRetention(app, { now }), runScheduledRetention(other, { now })]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      const runs = await app.db.select().from(jobRuns);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ job: 'retention', day: now.toISOString().slice(0, 10) });
      expect(runs[0].finishedAt).not.toBeNull();
      expect(runs[0].summary).toMatchObject({ warned: 0, erased: 0, failed: 0 });
      // Later the same (UTC) day, on either: nothing. Its last millisecond: an hour later may be tomorrow.
      const laterToday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 23, 59, 59, 999));
      expect(await runScheduledRetention(other, { now: laterToday })).toBeNull();
      expect(await app.db.select().from(jobRuns)).toHaveLength(1);
    } finally {
      await other.close();
      if (otherDatabase !== database) await otherDatabase.close();
    }
  });

  it('a run left unfinished for hours is taken over by exactly one instance', async () => {
    const now = new Date();
    await app.db.insert(jobRuns).values({ job: 'retention', day: '2001-01-01', startedAt: new Date(now.getTime() - 7 * 60 * 60 * 1000) });
    const claims = await Promise.all([claimJobRun(app.db, 'retention', '2001-01-01', now), claimJobRun(app.db, 'retention', '2001-01-01', now)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // A fresh claim is not taken over.
    expect(await claimJobRun(app.db, 'retention', '2001-01-01', new Date(now.getTime() + 60_000))).toBe(false);
  });
});

describe('POST /api/ops/retention and `npm run ops -- retention`', () => {
  const ops = (payload: unknown, headers: Record<string, string> = { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': OPERATOR }) =>
    app.inject({ method: 'POST', url: '/api/ops/retention', payload: payload as object, headers });

  it('422 without X-Ops-Actor (401 without the ops token: auth-required.test.ts)', async () => {
    const noActor = await ops({ dry_run: true }, { authorization: `Bearer ${OPS_TOKEN}` });
    expect(noActor.statusCode).toBe(422);
    expect(noActor.json().payload).toHaveProperty('X-Ops-Actor');
  });

  it('422 with field errors: as_of not a day, unknown fields, a real run in the future', async () => {
    for (const as_of of ['2026-02-30', 'maine', '31.12.2026', '']) {
      const res = await ops({ as_of, dry_run: true });
      expect(res.statusCode, as_of).toBe(422);
      expect(res.json().payload).toHaveProperty('as_of');
    }
    const unknown = await ops({ dry_run: true, force: true });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().payload).toHaveProperty('force');
    const notBoolean = await ops({ dry_run: 'poate' });
    expect(notBoolean.statusCode).toBe(422);
    expect(notBoolean.json().payload).toHaveProperty('dry_run');
    const future = await ops({ as_of: later(new Date(), 10).toISOString().slice(0, 10) });
    expect(future.statusCode).toBe(422);
    expect(future.json().payload.as_of[0]).toContain('dry_run');
  });

  it('a dry run lists one line per application and changes nothing; a real run is audited', async () => {
    const user = await registerUser(app);
    const asOf = later(new Date(), 170).toISOString().slice(0, 10);
    const dry = await ops({ as_of: asOf, dry_run: true });
    expect(dry.statusCode).toBe(200);
    expect(dry.json().payload).toMatchObject({ dry_run: true, as_of: `${asOf}T23:59:59.999Z`, counts: { warned: 1 } });
    expect(dry.json().payload.lines).toEqual([expect.objectContaining({ email: user.email, action: 'warn' })]);
    expect(await app.db.select().from(retentionNotices)).toEqual([]);

    const real = await ops({});
    expect(real.statusCode).toBe(200);
    expect(real.json().payload).toMatchObject({ dry_run: false, lines: [] });
    const [entry] = await app.db.select().from(auditLog).where(eq(auditLog.action, 'retention.run')).orderBy(auditLog.id);
    expect(entry).toMatchObject({ actor: OPERATOR, staffUserId: null });
    expect(entry.after).toMatchObject({ counts: { warned: 0 } });
  });

  it('the command parses --as-of (DD.MM.YYYY too) and --dry-run, and prints e-mail, what goes and why', async () => {
    expect(parseCommand(['retention'])).toEqual({ name: 'retention', asOf: undefined, dryRun: false });
    expect(parseCommand(['retention', '--as-of', '01.08.2027', '--dry-run'])).toEqual({ name: 'retention', asOf: '2027-08-01', dryRun: true });
    expect(() => parseCommand(['retention', 'extra'])).toThrow('retention: unexpected argument');

    const user = await registerUser(app);
    const lost = await registerUser(app);
    await openRequest(lost);
    await app.inject({ method: 'POST', url: '/api/mark-as-lost', payload: { reason_identifier: 'vinde-produse' }, headers: auth(lost.token) });
    // The command's HTTP calls go to this app (as they would to the server at OPS_URL).
    const fetchImpl = (async (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      const res = await app.inject({
        method: (init?.method ?? 'GET') as 'POST',
        url: url.pathname + url.search,
        headers: init?.headers as Record<string, string>,
        payload: init?.body as string,
      });
      return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') } });
    }) as typeof fetch;
    const out: string[] = [];
    const err: string[] = [];
    const asOf = later(new Date(), 200).toISOString().slice(0, 10);
    const code = await main(['retention', '--as-of', asOf, '--dry-run'], { OPS_URL: 'http://ops.test', OPS_TOKEN, OPS_ACTOR: OPERATOR }, { out: (t) => out.push(t), err: (t) => err.push(t), fetch: fetchImpl });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const lines = out.join('\n').split('\n');
    expect(lines[0]).toBe(`Retention as of ${asOf}T23:59:59.999Z (dry run: nothing was changed):`);
    expect(lines.find((l) => l.includes(user.email))).toMatch(new RegExp(`^  ${user.email.replace(/[.+]/g, '\\$&')}  \\[warning would be mailed\\] — why: .*avertizare`));
    expect(lines.find((l) => l.includes(lost.email))).toMatch(/\[would be reduced to the e-mail\] — goes: telefonul.* — why: cerere abandonată/);
    expect(lines.at(-1)).toMatch(/^Would be: 1 warned, 0 erased, 0 ID-photo sets deleted, 1 lost applications reduced/);
    expect(await app.db.select().from(retentionNotices)).toEqual([]);
  });
});
