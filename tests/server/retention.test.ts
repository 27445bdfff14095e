import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db';
import {
  auditLog,
  cities,
  consents,
  fileDeletions,
  files,
  identitySessions,
  idvSimulatorSessions,
  mailingAddresses,
  outbox,
  registrationRequests,
  retentionNotices,
  timelineItems,
  tokens,
  userMeta,
  users,
} from '../../server/db/schema';
import { VeriffClient } from '../../server/identity/veriff';
import { messages } from '../../server/messages';
import { runRetention } from '../../server/privacy/retention';
import { auth, placeAtStep, registerUser, requestRowOf, testConfig, type RegisteredUser } from './helpers';
import { sessionWithUploads, submit, verify } from './identity-helpers';
import { FakeVeriff } from './fake-veriff';
import { finalize, later, linesOf, loginAs, OPS_TOKEN, photoKeysOf, roDate, retentionApp } from './retention-setup';

/** Here: unfinished applications, identity photos and lost applications. */
let database: Database;
let app: FastifyInstance;
let ownUrl: URL | null;
const { retention, userExists, warningsTo, openRequest } = retentionApp('_retention', (made) => ({ database, app, ownUrl } = made));
const login = (user: RegisteredUser) => loginAs(app, user);
const photoKeys = (userId: number) => photoKeysOf(app, userId);

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
