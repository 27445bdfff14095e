import pg from 'pg';
import { count, eq, inArray } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db';
import {
  auditLog,
  cities,
  consents,
  fileDeletions,
  files,
  identitySessions,
  identityUploads,
  idvSimulatorSessions,
  jobRuns,
  mailingAddresses,
  outbox,
  registrationRequests,
  retainedRecords,
  retentionNotices,
  timelineItems,
  tokens,
  userMeta,
  users,
} from '../../server/db/schema';
import { VeriffClient } from '../../server/identity/veriff';
import { messages } from '../../server/messages';
import { runRetention, type RetentionReport } from '../../server/privacy/retention';
import { claimJobRun, runScheduledRetention } from '../../server/privacy/retention-schedule';
import { addTimelineItem } from '../../server/registration/timeline';
import { newStorageKey } from '../../server/storage/storage';
import { main, parseCommand } from '../../scripts/ops';
import { auth, databaseUrl, mailsTo, placeAtStep, registerUser, requestRowOf, testConfig, type RegisteredUser } from './helpers';
import { sessionWithUploads, submit, verify } from './identity-helpers';
import { FakeVeriff } from './fake-veriff';

/**
 * The retention job (issue 32, server/privacy/retention.ts) with a moved clock: every run is given
 * an `asOf` days ahead, the data is as the app wrote it now. The job acts on every account of the
 * database, so this file has a database of its own (PGlite in memory, or a PostgreSQL database made
 * for it and dropped after), emptied before each test: the other files' accounts are never touched.
 * Periods: the defaults (unfinished 180 days, warning 14, identity photos 30, lost 30).
 */

const OPS_TOKEN = 'retention-ops-token-0123456789';
const OPERATOR = 'Ana Operator';
const DAY = 24 * 60 * 60 * 1000;
const later = (from: Date, days: number, hours = 0) => new Date(from.getTime() + days * DAY + hours * 60 * 60 * 1000);

const runUrl = databaseUrl();
const ownUrl = runUrl ? new URL(runUrl) : null;
if (ownUrl) ownUrl.pathname = `${ownUrl.pathname}_retention`;
const ownName = ownUrl?.pathname.slice(1) ?? '';

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: runUrl! });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

let database: Database;
let app: FastifyInstance;

beforeAll(async () => {
  if (ownUrl) await adminQuery(`create database ${ownName}`);
  database = await openDatabase({ databaseUrl: ownUrl?.toString() ?? null, dataDir: ':memory:' });
  app = await buildApp(testConfig({ opsToken: OPS_TOKEN, idvSimulatorDelayMs: 0, databaseUrl: ownUrl?.toString() ?? null }), { database, checkAnswers: true });
  await app.ready();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  if (ownUrl) await adminQuery(`drop database if exists ${ownName} with (force)`);
});

beforeEach(async () => {
  await app.db.delete(users);
  await app.db.delete(outbox);
  await app.db.delete(retainedRecords);
  await app.db.delete(fileDeletions);
  await app.db.delete(idvSimulatorSessions);
  await app.db.delete(jobRuns);
});

const retention = (asOf: Date, dryRun = false) => runRetention(app, { asOf, dryRun });
const linesOf = (report: RetentionReport, email: string) => report.lines.filter((l) => l.email === email);
const userExists = async (user: RegisteredUser) => (await app.db.select({ id: users.id }).from(users).where(eq(users.id, user.user.id))).length === 1;
const warningsTo = async (email: string) => (await mailsTo(app, email)).filter((m) => m.subject === 'Contul tău Ghișeu va fi șters în curând');
const roDate = (date: Date) => new Intl.DateTimeFormat('ro-RO', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Bucharest' }).format(date);

async function openRequest(user: RegisteredUser) {
  const url = user.user.registration_type === 1 ? '/api/registration/existing/open' : '/api/registration/open';
  expect((await app.inject({ method: 'GET', url, headers: auth(user.token) })).statusCode).toBe(200);
}

async function login(user: RegisteredUser) {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
  expect(res.statusCode).toBe(200);
  return res;
}

/** The storage keys of the user's identity photos. */
async function photoKeys(userId: number): Promise<string[]> {
  const rows = await app.db
    .select({ key: files.storageKey })
    .from(identityUploads)
    .innerJoin(files, eq(files.id, identityUploads.fileId))
    .innerJoin(identitySessions, eq(identitySessions.id, identityUploads.identitySessionId))
    .where(eq(identitySessions.userId, userId));
  return rows.map((r) => r.key);
}

async function finalize(target: FastifyInstance, user: RegisteredUser) {
  await addTimelineItem(target, await requestRowOf(target, user), { type: 'finalized' }, { staffUserId: null, actor: OPERATOR });
}

describe('unfinished applications: warning, then erasure', () => {
  it('warns once warningDays before, erases only after the deadline and the warning period', async () => {
    const user = await registerUser(app);
    await openRequest(user);
    const t0 = new Date();

    // 165 days idle: nothing yet.
    let report = await retention(later(t0, 165));
    expect(linesOf(report, user.email)).toEqual([]);
    expect(await warningsTo(user.email)).toEqual([]);

    // 167 days: past 180 − 14, the warning mail goes, with the erasure's date and the two links.
    report = await retention(later(t0, 167));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'warn' }]);
    expect(report.counts.warned).toBe(1);
    const [warning, ...more] = await warningsTo(user.email);
    expect(more).toEqual([]);
    expect(warning.text).toContain('Ghișeu');
    expect(warning.text).toContain(roDate(later(t0, 181)));
    expect(warning.text).toContain('http://localhost:3000/login');
    expect(warning.text).toContain('http://localhost:3000/contul-meu/date');
    expect(warning.html).toContain('href="http://localhost:3000/login"');
    expect(await app.db.select().from(retentionNotices).where(eq(retentionNotices.userId, user.user.id))).toHaveLength(1);

    // Later runs before the deadline: no second warning, no erasure.
    for (const days of [170, 179, 180.5]) {
      report = await retention(later(t0, days));
      expect(linesOf(report, user.email)).toEqual([]);
    }
    expect(await warningsTo(user.email)).toHaveLength(1);
    expect(await userExists(user)).toBe(true);

    // Past the deadline and 14 days after the warning: erased.
    report = await retention(later(t0, 181, 1));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'erase' }]);
    expect(linesOf(report, user.email)[0].goes.length).toBeGreaterThan(0);
    expect(report.counts.erased).toBe(1);
    expect(await userExists(user)).toBe(false);
    // The erasure's audit entry says the retention job asked.
    const entries = await app.db.select().from(auditLog).where(eq(auditLog.action, 'account.erased'));
    expect(entries.some((e) => (e.after as { by?: string } | null)?.by === 'retention')).toBe(true);
    // One confirmation mail, which says why the job erased the account (not "as you asked").
    const confirmations = await app.db.select().from(outbox).where(eq(outbox.to, user.email));
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0].text).toContain(messages('ro').mail.accountErased.intro.retention(app.config.retention.unfinishedDays));
  });

  it('never erases without the whole warning period: a job that did not run for a while warns first', async () => {
    const user = await registerUser(app);
    const t0 = new Date();
    // First run long after the deadline: only the warning, erasure 14 days after it.
    let report = await retention(later(t0, 200));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'warn' }]);
    expect((await warningsTo(user.email))[0].text).toContain(roDate(later(t0, 214)));
    report = await retention(later(t0, 213));
    expect(linesOf(report, user.email)).toEqual([]);
    expect(await userExists(user)).toBe(true);
    report = await retention(later(t0, 214, 1));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'erase' }]);
    expect(await userExists(user)).toBe(false);
  });

  it('a sign-in after the warning restarts the cycle: no erasure, a new warning for the new period', async () => {
    const user = await registerUser(app);
    const t0 = new Date();
    await retention(later(t0, 167));
    expect(await warningsTo(user.email)).toHaveLength(1);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await login(user);
    const t1 = new Date();

    // Where the first period would have ended in erasure, the new one only warns.
    const report = await retention(later(t0, 181, 1));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'warn' }]);
    expect(await userExists(user)).toBe(true);
    expect(await warningsTo(user.email)).toHaveLength(2);
    expect(await app.db.select().from(retentionNotices).where(eq(retentionNotices.userId, user.user.id))).toHaveLength(2);
    // The new period: 180 days from the sign-in, and 14 after its warning.
    expect(linesOf(await retention(later(t1, 194)), user.email)).toEqual([]);
    expect(await userExists(user)).toBe(true);
    expect(linesOf(await retention(later(t0, 195, 2)), user.email)).toMatchObject([{ action: 'erase' }]);
    expect(await userExists(user)).toBe(false);
  });

  it('an account past the wizard (a finalized dossier) is never erased by the job', async () => {
    const user = await registerUser(app);
    await openRequest(user);
    await finalize(app, user);
    const report = await retention(later(new Date(), 400));
    expect(linesOf(report, user.email).filter((l) => l.action === 'warn' || l.action === 'erase')).toEqual([]);
    expect(await userExists(user)).toBe(true);
  });
});

describe('identity photos', () => {
  it('are deleted idMediaDays after the dossier is finalized: files gone from storage and table, decision and person kept', async () => {
    const user = await registerUser(app);
    await openRequest(user);
    const { session } = await sessionWithUploads(app, user.token);
    expect((await submit(app, user.token, session.session_id)).statusCode).toBe(200);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    const keys = await photoKeys(user.user.id);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(await app.storage.get(key)).not.toBeNull();
    const [simulated] = await app.db.select().from(idvSimulatorSessions).where(eq(idvSimulatorSessions.sessionId, session.session_id));
    expect(simulated.media).toHaveLength(3);

    await finalize(app, user);
    const t1 = new Date();

    let report = await retention(later(t1, 29));
    expect(linesOf(report, user.email)).toEqual([]);
    expect(await photoKeys(user.user.id)).toHaveLength(3);

    report = await retention(later(t1, 31));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'id_media' }]);
    expect(report.counts.id_media).toBe(1);
    expect(await app.db.select().from(files).where(inArray(files.storageKey, keys))).toEqual([]);
    for (const key of keys) expect(await app.storage.get(key)).toBeNull();
    expect(await app.db.select().from(fileDeletions).where(inArray(fileDeletions.storageKey, keys))).toEqual([]);
    const [kept] = await app.db.select().from(identitySessions).where(eq(identitySessions.sessionId, session.session_id));
    expect(kept).toMatchObject({ status: 2, decisionCode: 9001, deletedAt: null });
    expect(kept.mediaErasedAt).not.toBeNull();
    expect(kept.person).toMatchObject({ first_name: expect.any(String), personal_code: expect.any(String) });
    const [simulatedAfter] = await app.db.select().from(idvSimulatorSessions).where(eq(idvSimulatorSessions.sessionId, session.session_id));
    expect(simulatedAfter.media).toEqual([]);
    expect(await userExists(user)).toBe(true);

    // Done once.
    expect(linesOf(await retention(later(t1, 32)), user.email)).toEqual([]);
  });

  it('"Am PFA": counted from the hand-over to the dashboard (the flow completed)', async () => {
    const user = await registerUser(app, { type: 1 });
    await openRequest(user);
    await sessionWithUploads(app, user.token);
    const row = await requestRowOf(app, user);
    const handedOver = new Date();
    await placeAtStep(app, user, row.step, { flow_completed_at: handedOver.toISOString() });
    expect(linesOf(await retention(later(handedOver, 29)), user.email)).toEqual([]);
    expect(linesOf(await retention(later(handedOver, 30, 1)), user.email)).toMatchObject([{ action: 'id_media' }]);
    expect(await photoKeys(user.user.id)).toEqual([]);
  });

  it('the real provider (Veriff) is asked to delete the session and its media, signed', async () => {
    const fake = await new FakeVeriff('veriff-key', 'veriff-secret').start();
    const veriffApp = await buildApp(testConfig({ opsToken: OPS_TOKEN, databaseUrl: ownUrl?.toString() ?? null }), {
      database,
      identity: new VeriffClient({ apiKey: 'veriff-key', sharedSecret: 'veriff-secret', baseUrl: fake.url }),
    });
    try {
      await veriffApp.ready();
      const user = await registerUser(veriffApp);
      await veriffApp.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
      const { session } = await sessionWithUploads(veriffApp, user.token);
      expect(fake.sessions.get(session.session_id)?.media).toHaveLength(3);
      const keys = await photoKeys(user.user.id);
      await finalize(veriffApp, user);
      const report = await runRetention(veriffApp, { asOf: later(new Date(), 31), dryRun: false });
      expect(linesOf(report, user.email)).toMatchObject([{ action: 'id_media' }]);
      expect(fake.sessions.get(session.session_id)?.deleted).toBe(true);
      const deletes = fake.requests.filter((r) => r.method === 'DELETE');
      expect(deletes).toEqual([expect.objectContaining({ path: `/v1/sessions/${session.session_id}`, authentic: true })]);
      for (const key of keys) expect(await veriffApp.storage.get(key)).toBeNull();
    } finally {
      await veriffApp.close();
      await fake.stop();
    }
  });
});

describe('lost applications', () => {
  it('keep only the e-mail (and what signing in and the lost reason need) after lostDays', async () => {
    const user = await registerUser(app, { cookies: [{ key: 'ghiseu_first_source', value: 'google' }] });
    await openRequest(user);
    const firstStep = app.flows.byType[2].steps[0].id;
    await placeAtStep(app, user, firstStep, { questionnaire: ['vinde-produse'], secret_note: 'ceva personal' });
    await sessionWithUploads(app, user.token);
    const keys = await photoKeys(user.user.id);
    const [city] = await app.db.select().from(cities).limit(1);
    await app.db.insert(mailingAddresses).values({ userId: user.user.id, contactFirstName: 'Ion', contactLastName: 'Popescu', countyId: city.countyId, cityId: city.id, street: 'Str. Lungă', number: '1' });
    const lostRes = await app.inject({ method: 'POST', url: '/api/mark-as-lost', payload: { reason_identifier: 'vinde-produse' }, headers: auth(user.token) });
    expect(lostRes.statusCode).toBe(200);
    const row = await requestRowOf(app, user);
    await app.db.update(registrationRequests).set({ profile: { first_name: 'Ion', personal_code: '1960101123456' } }).where(eq(registrationRequests.id, row.id));
    await app.db.insert(timelineItems).values({ requestId: row.id, type: 'document_review', date: '2026-01-02', data: {} });
    const [before] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    const t0 = new Date();

    expect(linesOf(await retention(later(t0, 29)), user.email)).toEqual([]);
    const report = await retention(later(t0, 31));
    expect(linesOf(report, user.email)).toMatchObject([{ action: 'lost' }]);
    expect(report.counts.lost).toBe(1);

    const [after] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    expect(after).toMatchObject({ email: before.email, passwordHash: before.passwordHash, phone: '' });
    const [request] = await app.db.select().from(registrationRequests).where(eq(registrationRequests.id, row.id));
    expect(request).toMatchObject({ status: 'lost', lostReason: 'vinde-produse', formData: {}, profile: {}, step: firstStep });
    expect(await app.db.select().from(userMeta).where(eq(userMeta.userId, user.user.id))).toEqual([]);
    expect(await app.db.select().from(tokens).where(eq(tokens.userId, user.user.id))).toEqual([]);
    expect(await app.db.select().from(files).where(eq(files.userId, user.user.id))).toEqual([]);
    for (const key of keys) expect(await app.storage.get(key)).toBeNull();
    expect(await app.db.select().from(identitySessions).where(eq(identitySessions.userId, user.user.id))).toEqual([]);
    expect(await app.db.select().from(mailingAddresses).where(eq(mailingAddresses.userId, user.user.id))).toEqual([]);
    expect(await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, row.id))).toEqual([]);
    // The terms stay with the account; the marketing consent, given, stays: the e-mail is kept to write to them.
    const kinds = (await app.db.select().from(consents).where(eq(consents.userId, user.user.id))).map((c) => c.kind).sort();
    expect(kinds).toEqual(['marketing', 'terms']);

    // Done once; the applicant can still sign in.
    expect(linesOf(await retention(later(t0, 32)), user.email)).toEqual([]);
    await login(user);
  });
});

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

  it('401 without the ops token or with a wrong one; 422 without X-Ops-Actor', async () => {
    expect((await ops({ dry_run: true }, {})).statusCode).toBe(401);
    expect((await ops({ dry_run: true }, { authorization: 'Bearer not-the-token-0123456789', 'x-ops-actor': OPERATOR })).statusCode).toBe(401);
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
