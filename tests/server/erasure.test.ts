import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import {
  auditLog,
  cities,
  consents,
  files,
  identitySessions,
  idvSimulatorSessions,
  mailingAddresses,
  outbox,
  payments,
  registrationRequests,
  requestDocuments,
  retainedRecords,
  timelineItems,
  tokens,
  users,
} from '../../server/db/schema';
import { saveFile } from '../../server/files/files';
import { ERASURE_ACTION } from '../../server/privacy/erase';
import { USER_PRIVACY_MESSAGES } from '../../server/routes/user-privacy';
import { OPS_MESSAGES } from '../../server/routes/ops';
import { recordAudit, READ_ACTIONS } from '../../server/staff/audit';
import { LocalFileStorage } from '../../server/storage/file-storage';
import { messages } from '../../server/messages';
import { auth, mailsTo, placeAtStep, registerUser, requestRowOf, testConfig, testDatabase } from './helpers';
import { sessionWithUploads } from './identity-helpers';
import { startS3 } from './s3-test-server';
import { FakeStripe } from './fake-stripe';
import { SUBSCRIPTION_NOT_ENDED } from '../../server/privacy/erase';

const OPS_TOKEN = 'ops-erasure-token-0123456789';
const OPERATOR = 'Ana Operatoarea';
const ops = (actor: string | null = OPERATOR) => ({ authorization: `Bearer ${OPS_TOKEN}`, ...(actor === null ? {} : { 'x-ops-actor': actor }) });
const CNP = '1900101400011';
const PDF = Buffer.from('%PDF-1.4\n% contract de test\n%%EOF\n');

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildApp(testConfig({ opsToken: OPS_TOKEN }), { database: await testDatabase(), checkAnswers: true });
  await app.ready();
});
afterAll(() => app.close());

const privacyOf = (token?: string) => app.inject({ method: 'GET', url: '/api/user/privacy', headers: token ? auth(token) : {} });
const erase = (token: string | undefined, payload: unknown, on = app) =>
  on.inject({ method: 'DELETE', url: '/api/user', headers: token ? auth(token) : {}, payload: payload as object });

/**
 * An applicant with everything an erasure touches: a request with the CNP, identity photos, a
 * diploma, a signed contract, an address, a timeline (filed with the trade register), a paid
 * payment, staff reads and changes in the audit log (one naming the e-mail), mails.
 */
async function fullApplicant(on = app) {
  const user = await registerUser(on);
  await on.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
  const opened = await requestRowOf(on, user);
  await placeAtStep(on, user, opened.step, { personal_code: CNP });
  const request = await requestRowOf(on, user);
  await on.db
    .update(registrationRequests)
    .set({ profile: { first_name: 'Ion', last_name: 'Popescu', personal_code: CNP } })
    .where(eq(registrationRequests.id, request.id));
  const { session } = await sessionWithUploads(on, user.token);
  const diploma = await saveFile(on, user.user.id, { data: PDF, originalName: 'diploma.pdf', contentType: 'application/pdf', clean: true });
  await on.db.insert(requestDocuments).values({ requestId: request.id, fileId: diploma.id, kind: 'diploma' });
  const contract = await saveFile(on, user.user.id, { data: PDF, originalName: 'contract-asistenta-juridica.pdf', contentType: 'application/pdf', clean: true });
  await on.db.insert(requestDocuments).values({ requestId: request.id, fileId: contract.id, kind: 'legal_assistance_contract' });
  const [city] = await on.db.select().from(cities).limit(1);
  await on.db.insert(mailingAddresses).values({ userId: user.user.id, contactFirstName: 'Ion', contactLastName: 'Popescu', countyId: city.countyId, cityId: city.id, street: 'Strada Lungă', number: '7' });
  await on.db.insert(timelineItems).values({ requestId: request.id, type: 'submitted', date: '2026-03-02', data: { finalDossierSubmitted: true } });
  const paidAt = new Date('2026-03-01T10:00:00Z');
  await on.db.insert(payments).values({ id: `pay_erase_${user.user.id}`, requestId: request.id, provider: 'builtin', stripePriceId: 'price_test', amountBani: 4900, currency: 'ron', status: 'paid', paidAt });
  await recordAudit(on.db, { staffUserId: null, actor: 'maria', action: 'timeline.add', requestId: request.id, before: { profile: { personal_code: CNP } }, after: { status: 'x' } });
  await recordAudit(on.db, { staffUserId: null, actor: 'maria', action: READ_ACTIONS.search, after: { search: user.email } });
  return { user, request, session, contract, diploma };
}

async function storageKeysOf(on: FastifyInstance, userId: number) {
  return (await on.db.select({ key: files.storageKey }).from(files).where(eq(files.userId, userId))).map((r) => r.key);
}

describe('GET /api/user/privacy', () => {
  it('shows the consents given at registration with the texts\' version, the periods of the configuration, and nothing kept for a new account', async () => {
    const user = await registerUser(app);
    const res = await privacyOf(user.token);
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.email).toBe(user.email);
    expect(payload.consents.terms.version).toMatch(/^termeni .+\([0-9a-f]{12}\); confidentialitate .+\([0-9a-f]{12}\)$/);
    expect(payload.consents.marketing).toMatchObject({ accepted: true, withdrawn_at: null });
    expect(payload.retention).toEqual({
      unfinished_days: app.config.retention.unfinishedDays,
      warning_days: app.config.retention.warningDays,
      id_media_days: app.config.retention.idMediaDays,
      lost_days: app.config.retention.lostDays,
      accounting_years: app.config.retention.accountingYears,
      contract_years: app.config.retention.contractYears,
    });
    expect(payload.after_erasure).toEqual([]);
  });

  it('lists, before any erasure, what the law would keep: payments, the signed contract, the dossier at the trade register', async () => {
    const { user } = await fullApplicant();
    const kept = (await privacyOf(user.token)).json().payload.after_erasure;
    expect(kept).toEqual([
      { kind: 'payment', count: 1, keep_until: `${2026 + app.config.retention.accountingYears}-12-31` },
      { kind: 'contract', count: 1, keep_until: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
      { kind: 'trade_register', count: 1, keep_until: null },
    ]);
  });
});

describe('the marketing consent', () => {
  it('DELETE /api/user/consents/marketing withdraws it (once), as the unsubscribe link does', async () => {
    const user = await registerUser(app);
    const other = await registerUser(app);
    const res = await app.inject({ method: 'DELETE', url: '/api/user/consents/marketing', headers: auth(user.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ accepted: false, withdrawn_at: expect.any(String) });
    const first = res.json().payload.withdrawn_at;
    const again = await app.inject({ method: 'DELETE', url: '/api/user/consents/marketing', headers: auth(user.token) });
    expect(again.json().payload.withdrawn_at).toBe(first);
    const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    expect(row.unsubscribedAt).not.toBeNull();
    // The other applicant's consent is untouched.
    expect((await privacyOf(other.token)).json().payload.consents.marketing).toMatchObject({ accepted: true, withdrawn_at: null });
  });

  it('the unsubscribe link withdraws it too', async () => {
    const user = await registerUser(app);
    const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    const res = await app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { frontend_id: row.frontendId } });
    expect(res.statusCode).toBe(200);
    expect((await privacyOf(user.token)).json().payload.consents.marketing).toMatchObject({ accepted: false, withdrawn_at: expect.any(String) });
  });
});

describe('DELETE /api/user', () => {
  it('refuses without the password or with a wrong one, and changes nothing', async () => {
    const user = await registerUser(app);
    for (const payload of [{}, { password: '' }, { password: 42 }, { password: 'x'.repeat(201) }]) {
      const res = await erase(user.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().payload.password).toEqual([expect.any(String)]);
    }
    const wrong = await erase(user.token, { password: `${user.password}x` });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().payload).toEqual({ password: [USER_PRIVACY_MESSAGES.wrongPassword] });
    expect(await app.db.select().from(users).where(eq(users.id, user.user.id))).toHaveLength(1);
    expect((await privacyOf(user.token)).statusCode).toBe(200);
  });

  it('another applicant\'s token with this applicant\'s password erases no one', async () => {
    const alice = await registerUser(app);
    const bob = await registerUser(app);
    const res = await erase(bob.token, { password: alice.password === bob.password ? `${alice.password}!` : alice.password });
    expect(res.statusCode).toBe(422);
    expect(await app.db.select().from(users).where(inArray(users.id, [alice.user.id, bob.user.id]))).toHaveLength(2);
  });

  it('erases the account for good: rows, files, sessions, mails and the audit log\'s data; keeps apart what the law needs; mails one confirmation', async () => {
    const bob = await fullApplicant();
    const { user, request, session, contract } = await fullApplicant();
    const keys = await storageKeysOf(app, user.user.id);
    expect(keys.length).toBe(5); // three identity photos, the diploma, the contract
    const [contractRow] = await app.db.select().from(files).where(eq(files.id, contract.id));
    expect(await mailsTo(app, user.email)).not.toHaveLength(0);
    const sessionRows = await app.db.select().from(identitySessions).where(eq(identitySessions.userId, user.user.id));
    expect(sessionRows).toHaveLength(1);

    const res = await erase(user.token, { password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: USER_PRIVACY_MESSAGES.erased, payload: null });

    // The session and the password no longer open anything.
    expect((await privacyOf(user.token)).statusCode).toBe(401);
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
    expect(login.statusCode).toBe(422);

    // Rows: nothing of the user is left in any table.
    expect(await app.db.select().from(users).where(eq(users.id, user.user.id))).toHaveLength(0);
    expect(await app.db.select().from(tokens).where(eq(tokens.userId, user.user.id))).toHaveLength(0);
    expect(await app.db.select().from(consents).where(eq(consents.userId, user.user.id))).toHaveLength(0);
    expect(await app.db.select().from(files).where(eq(files.userId, user.user.id))).toHaveLength(0);
    expect(await app.db.select().from(identitySessions).where(eq(identitySessions.userId, user.user.id))).toHaveLength(0);
    expect(await app.db.select().from(mailingAddresses).where(eq(mailingAddresses.userId, user.user.id))).toHaveLength(0);
    expect(await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, request.id))).toHaveLength(0);
    expect(await app.db.select().from(payments).where(eq(payments.requestId, request.id))).toHaveLength(0);
    expect(await app.db.select().from(idvSimulatorSessions).where(eq(idvSimulatorSessions.sessionId, session.session_id))).toHaveLength(0);

    // Files: the bytes are gone from the storage, except the contract the law keeps.
    for (const key of keys.filter((k) => k !== contractRow.storageKey)) expect(await app.storage.get(key)).toBeNull();
    expect(await app.storage.get(contractRow.storageKey)).toEqual(PDF);

    // Kept apart, reduced: the payment and the contract, no CNP, no address, no phone.
    const kept = await app.db.select().from(retainedRecords).where(eq(retainedRecords.subject, user.email));
    expect(kept.map((r) => r.kind).sort()).toEqual(['contract', 'payment']);
    const payment = kept.find((r) => r.kind === 'payment')!;
    expect(payment.data).toMatchObject({ amount_bani: 4900, currency: 'ron', paid_at: '2026-03-01T10:00:00.000Z', payer: { name: 'Popescu Ion', email: user.email } });
    expect(payment.keepUntil).toBe(`${2026 + app.config.retention.accountingYears}-12-31`);
    expect(kept.find((r) => r.kind === 'contract')!.storageKey).toBe(contractRow.storageKey);
    expect(JSON.stringify(kept)).not.toContain(CNP);
    expect(JSON.stringify(kept)).not.toContain('Strada');

    // The audit log keeps who did what and when, not the data; one entry records the erasure.
    const entries = await app.db.select().from(auditLog).where(eq(auditLog.requestId, request.id));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect([entry.before, entry.after]).toEqual([null, null]);
    const everything = JSON.stringify(await app.db.select().from(auditLog));
    expect(everything).not.toContain(user.email);
    const [erasure] = await app.db.select().from(auditLog).where(and(eq(auditLog.action, ERASURE_ACTION), isNull(auditLog.requestId))).orderBy(auditLog.id).limit(1000).then((rows) => rows.slice(-1));
    expect(erasure.after).toMatchObject({ by: 'applicant', kept: expect.arrayContaining([expect.objectContaining({ kind: 'payment' })]) });

    // Mails: the earlier ones are dropped; one confirmation, which says what is kept and until when.
    const mails = await app.db.select().from(outbox).where(eq(outbox.to, user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(messages('ro').mail.accountErased.subject(app.config.productName));
    expect(mails[0].text).toContain(messages('ro').mail.accountErased.keptTradeRegister);
    expect(mails[0].text).not.toContain(CNP);

    // The other applicant is untouched.
    expect(await app.db.select().from(users).where(eq(users.id, bob.user.user.id))).toHaveLength(1);
    for (const key of await storageKeysOf(app, bob.user.user.id)) expect(await app.storage.get(key)).not.toBeNull();
    expect((await privacyOf(bob.user.token)).statusCode).toBe(200);
  });
});

describe('npm run ops -- erase (a written request)', () => {
  const opsErase = (payload: unknown, headers = ops()) => app.inject({ method: 'POST', url: '/api/ops/users/erase', headers, payload: payload as object });

  it('needs the operator\'s name and a well-formed body', async () => {
    const user = await registerUser(app);
    expect((await opsErase({ email: user.email }, ops(null))).statusCode).toBe(422);
    for (const payload of [{}, { email: 'fara-arond' }, { email: user.email, erase: 'da' }, { email: 'x'.repeat(250) + '@a.ro' }]) {
      expect((await opsErase(payload)).statusCode, JSON.stringify(payload)).toBe(422);
    }
    const unknown = await opsErase({ email: 'nimeni@exemplu.ro' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(OPS_MESSAGES.noAccount('nimeni@exemplu.ro'));
    expect(await app.db.select().from(users).where(eq(users.id, user.user.id))).toHaveLength(1);
  });

  it('without erase: true only says what would go and what is kept; with it, erases and the audit names the operator', async () => {
    const { user } = await fullApplicant();
    const plan = await opsErase({ email: user.email.toUpperCase() });
    expect(plan.statusCode).toBe(200);
    expect(plan.json().payload).toMatchObject({ email: user.email, erased: false, files_deleted: 0 });
    expect(plan.json().payload.goes.length).toBeGreaterThan(2);
    expect(plan.json().payload.kept.map((k: { kind: string }) => k.kind)).toEqual(['payment', 'contract', 'trade_register']);
    expect(await app.db.select().from(users).where(eq(users.id, user.user.id))).toHaveLength(1);

    const done = await opsErase({ email: user.email, erase: true });
    expect(done.statusCode).toBe(200);
    expect(done.json().payload).toMatchObject({ erased: true, files_deleted: 4 });
    expect(await app.db.select().from(users).where(eq(users.id, user.user.id))).toHaveLength(0);
    const erasures = await app.db.select().from(auditLog).where(eq(auditLog.action, ERASURE_ACTION));
    expect(erasures.at(-1)).toMatchObject({ actor: OPERATOR, staffUserId: null, after: expect.objectContaining({ by: 'operator' }) });
    expect(await mailsTo(app, user.email)).toHaveLength(1);
    // A second request for the same address: no account any more.
    expect((await opsErase({ email: user.email, erase: true })).statusCode).toBe(404);
  });
});

describe('the stored bytes go from every storage', () => {
  async function erasesEverything(on: FastifyInstance, stored: (key: string) => Promise<boolean>) {
    const { user, contract } = await fullApplicant(on);
    const keys = await storageKeysOf(on, user.user.id);
    const [contractRow] = await on.db.select().from(files).where(eq(files.id, contract.id));
    for (const key of keys) expect(await stored(key)).toBe(true);
    expect((await erase(user.token, { password: user.password }, on)).statusCode).toBe(200);
    for (const key of keys) expect(await stored(key), key).toBe(key === contractRow.storageKey);
  }

  it('a local folder (DATA_DIR/files)', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'erasure-files-'));
    const local = await buildApp(testConfig(), { database: await testDatabase(), checkAnswers: true, storage: new LocalFileStorage(dir) });
    await local.ready();
    try {
      await erasesEverything(local, async (key) =>
        fs.access(path.join(dir, key.slice(0, 2), key)).then(
          () => true,
          () => false,
        ),
      );
    } finally {
      await local.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('an S3 bucket', async () => {
    const server = await startS3('ghiseu-erasure');
    const s3app = await buildApp(testConfig({ s3: server.config }), { database: await testDatabase(), checkAnswers: true });
    await s3app.ready();
    try {
      // Asked through the S3 API of the bucket (the app's storage reads the bucket; null: no object).
      await erasesEverything(s3app, async (key) => (await s3app.storage.get(key)) !== null);
    } finally {
      await s3app.close();
      await server.close();
    }
  });
});

describe('a paid subscription ends with the account', () => {
  const fake = new FakeStripe();
  let stripeApp: FastifyInstance;
  beforeAll(async () => {
    await fake.start();
    stripeApp = await buildApp(testConfig({ stripeSecretKey: 'sk_test_local', stripeWebhookSecret: 'whsec_erasure', stripeApiUrl: fake.url }), {
      database: await testDatabase(),
      checkAnswers: true,
    });
    await stripeApp.ready();
  });
  afterAll(async () => {
    await stripeApp.close();
    await fake.stop();
  });

  async function subscriber(subscriptionId: string) {
    const user = await registerUser(stripeApp);
    await stripeApp.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    const request = await requestRowOf(stripeApp, user);
    await stripeApp.db.insert(payments).values({
      id: `pay_sub_${user.user.id}`,
      requestId: request.id,
      provider: 'stripe',
      providerSessionId: `cs_erase_${user.user.id}`,
      providerSubscriptionId: subscriptionId,
      stripePriceId: 'price_test',
      amountBani: 4900,
      currency: 'ron',
      status: 'paid',
      paidAt: new Date(),
    });
    return user;
  }

  it('Stripe is asked to cancel it before anything is erased; the payment record is kept', async () => {
    const subscription = `sub_erase_${Date.now()}`;
    const user = await subscriber(subscription);
    const res = await erase(user.token, { password: user.password }, stripeApp);
    expect(res.statusCode).toBe(200);
    expect(fake.cancelled.has(subscription)).toBe(true);
    expect(fake.calls.find((c) => c.method === 'DELETE' && c.path === `/v1/subscriptions/${subscription}`)?.idempotencyKey).toBe(`cancel-${subscription}`);
    const [kept] = await stripeApp.db.select().from(retainedRecords).where(and(eq(retainedRecords.subject, user.email), eq(retainedRecords.kind, 'payment')));
    expect(kept.data).toMatchObject({ provider: 'stripe', provider_subscription_id: subscription });
  });

  it('a subscription Stripe no longer has is no obstacle', async () => {
    const user = await subscriber(`sub_gone_${Date.now()}`);
    expect((await erase(user.token, { password: user.password }, stripeApp)).statusCode).toBe(200);
  });

  it('Stripe unreachable: 503 with a Romanian message, and nothing is erased', async () => {
    const subscription = `sub_down_${Date.now()}`;
    const user = await subscriber(subscription);
    fake.failNext = 100;
    try {
      const res = await erase(user.token, { password: user.password }, stripeApp);
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe(SUBSCRIPTION_NOT_ENDED);
    } finally {
      fake.failNext = 0;
    }
    expect(await stripeApp.db.select().from(users).where(eq(users.id, user.user.id))).toHaveLength(1);
    expect(await stripeApp.db.select().from(retainedRecords).where(eq(retainedRecords.subject, user.email))).toHaveLength(0);
    expect((await stripeApp.inject({ method: 'GET', url: '/api/user/privacy', headers: auth(user.token) })).statusCode).toBe(200);
  });
});
