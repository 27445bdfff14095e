import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { SessionUser } from '../../src/core/api-types';
import { auth, databaseUrl, partnerBySlug, placeAtStep, registerUser, testConfig, uniqueEmail, type RegisteredUser } from './helpers';
import { anafPfa, FakeAnaf } from './fake-anaf';
import { PNG, createSession, upload } from './identity-helpers';
import { REDIS_URL, deleteKeys, redisRunPrefix } from './redis-helpers';
import { startS3 } from './s3-test-server';
import { startSmtpServer } from './smtp-test-server';

/**
 * Two app instances (two buildApp, each with its own database pool, listening on two ports of
 * 127.0.0.1) on one PostgreSQL database, one Redis, one S3 bucket (s3rver), one SMTP server and
 * the fake ANAF: what one instance did, the other sees. PostgreSQL only (`npm run test:pg`): PGlite
 * is one process's embedded database.
 */
const SKIP = databaseUrl() ? '' : ' (skipped: needs PostgreSQL — run `npm run test:pg`, which sets DATABASE_URL)';

describe.skipIf(!databaseUrl())(`two app instances on one PostgreSQL, Redis, S3 and SMTP${SKIP}`, () => {
  const prefix = redisRunPrefix('two-instances');
  const anaf = new FakeAnaf();
  let s3: Awaited<ReturnType<typeof startS3>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let urlA: string;
  let urlB: string;

  // A database of its own (made here, dropped after): the run's shared one holds the other files'
  // queued mails, which are not this test's to send.
  const runUrl = databaseUrl() ?? 'postgres://127.0.0.1/skipped';
  const ownUrl = new URL(runUrl);
  ownUrl.pathname = `${ownUrl.pathname}_two`;
  const admin = () => new pg.Client({ connectionString: runUrl });

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${ownUrl.pathname.slice(1)}`);
    await client.end();
    await anaf.start();
    anaf.add(anafPfa(42157397), anafPfa(46720190, 'IONESCU MARIA-ELENA PFA'), anafPfa(38176420, 'VASILE DAN PFA'));
    s3 = await startS3('ghiseu-two');
    smtp = await startSmtpServer();
    const config = testConfig({
      databaseUrl: ownUrl.toString(),
      redisUrl: REDIS_URL,
      s3: s3.config,
      smtpUrl: smtp.url,
      companyLookup: 'anaf',
      anafApiUrl: anaf.url,
      loginMaxAttempts: 3,
    });
    const start = async () => {
      const app = await buildApp(config, { redisKeyPrefix: prefix, mailQueue: { pollMs: 100, retryBaseMs: 100 } });
      await app.listen({ host: '127.0.0.1', port: 0 });
      return app;
    };
    [a, b] = await Promise.all([start(), start()]);
    urlA = `http://127.0.0.1:${(a.server.address() as AddressInfo).port}`;
    urlB = `http://127.0.0.1:${(b.server.address() as AddressInfo).port}`;
    expect(urlA).not.toBe(urlB);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([anaf.stop(), s3?.close(), smtp?.close()]);
    await deleteKeys(prefix);
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${ownUrl.pathname.slice(1)} with (force)`);
    await client.end();
  });

  const post = (base: string, path: string, body: object, token?: string) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? auth(token) : {}) },
      body: JSON.stringify(body),
    });

  it('a user registered on A logs in on B', async () => {
    const partner = await partnerBySlug(a, 'neafiliat');
    const email = uniqueEmail('doua');
    const registered = await post(urlA, '/api/register', {
      email,
      password: 'parola-sigura',
      phone: '0712345678',
      referral_code: null,
      cookies: [],
      marketing_accepted: true,
      registration_type: 2,
      partner_id: partner.id,
    });
    expect(registered.status).toBe(200);
    const login = await post(urlB, '/api/login', { email, password: 'parola-sigura' });
    expect(login.status).toBe(200);
    const user = (await login.json()).payload as SessionUser;
    expect(user.email).toBe(email);
    // B's token works on A.
    const me = await fetch(`${urlA}/api/registration/open`, { headers: auth(user.access_token) });
    expect(me.status).toBe(200);
  });

  it('the login limit counts the attempts made on both', async () => {
    const { email, password } = await registerUser(a);
    expect((await post(urlA, '/api/login', { email, password: 'gresita' })).status).toBe(422);
    expect((await post(urlB, '/api/login', { email, password: 'gresita' })).status).toBe(422);
    expect((await post(urlA, '/api/login', { email, password: 'gresita' })).status).toBe(422);
    const locked = await post(urlB, '/api/login', { email, password });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await locked.json()).message).toBe('Prea multe încercări de autentificare. Te rugăm să încerci din nou peste câteva minute.');
  });

  async function atCompanyStep(app: FastifyInstance): Promise<RegisteredUser> {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, 'existing-company-step-2');
    return user;
  }
  const collect = (base: string, user: RegisteredUser, fiscal_code: string) =>
    post(base, '/api/registration/existing/collect/company', { current_step_identifier: 'existing-company-step-2', fiscal_code }, user.token);

  it('a step submitted on A makes the same step on B answer 409 (and B finds the ANAF answer in the shared cache)', async () => {
    const user = await atCompanyStep(a);
    anaf.calls.length = 0;
    const first = await collect(urlA, user, '42157397');
    expect(first.status).toBe(200);
    const stale = await collect(urlB, user, '42157397');
    expect(stale.status).toBe(409);
    expect((await stale.json()).payload).toMatchObject({ step: 'existing-company-step-3', company: { fiscal_code: '42157397' } });
    // Another applicant on B asks for the same CUI: answered from Redis, no second call to ANAF.
    const other = await atCompanyStep(b);
    expect((await collect(urlB, other, '42157397')).status).toBe(200);
    expect(anaf.callsFor(42157397)).toHaveLength(1);
  });

  it('the ANAF pace holds across both: calls made through A and B at once arrive at least ~1 s apart', async () => {
    const [first, second] = await Promise.all([atCompanyStep(a), atCompanyStep(b)]);
    anaf.calls.length = 0;
    const answers = await Promise.all([collect(urlA, first, '46720190'), collect(urlB, second, '38176420')]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(anaf.calls).toHaveLength(2);
    const [t1, t2] = anaf.calls.map((c) => c.receivedAt).sort((x, y) => x - y);
    expect(t2 - t1).toBeGreaterThanOrEqual(950);
  });

  it('a file uploaded through A downloads through B (shared S3), to its owner only', async () => {
    const owner = await registerUser(a);
    const other = await registerUser(b);
    const session = await createSession(a, owner.token);
    const res = await upload(a, owner.token, session.session_id, 'document-front', { filename: 'buletin.png', data: PNG });
    expect(res.statusCode).toBe(200);
    const url = res.json().payload.preview_url as string;
    const download = await fetch(`${urlB}${url}`, { headers: auth(owner.token) });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    expect((await fetch(`${urlB}${url}`, { headers: auth(other.token) })).status).toBe(404);
  });

  it('a mail queued by A is sent once, though both instances run a worker on the queue', async () => {
    const { email } = await registerUser(a);
    const forgot = await post(urlA, '/api/password/forgot', { email });
    expect(forgot.status).toBe(200);
    const isReset = (m: { body: string }) => m.body.includes('/password/reset?url=');
    await smtp.next(email, isReset);
    await smtp.next(email, (m) => m.body.includes('/api/email/verify/'));
    // Both workers look at the queue again (and again): nothing is sent a second time.
    await Promise.all([a.mailer.drain(), b.mailer.drain()]);
    await Promise.all([a.mailer.drain(), b.mailer.drain()]);
    expect(smtp.mailsTo(email).filter(isReset)).toHaveLength(1);
    expect(smtp.mailsTo(email)).toHaveLength(2);
  });
});
