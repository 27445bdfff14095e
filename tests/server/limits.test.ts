import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { loadConfig, type AppConfig, type RateLimits } from '../../server/config';
import { users } from '../../server/db/schema';
import { hashPassword } from '../../server/lib/passwords';
import { auth, mailsTo, partnerBySlug, placeAtStep, registerUser, requestRowOf, testApp, testConfig, uniqueEmail } from './helpers';
import { JPEG, PNG, WEBP, createSession, multipartPayload, upload } from './identity-helpers';
import { REDIS_SKIP_REASON, deleteKeys, redisAvailable, redisRunPrefix, redisTestApp } from './redis-helpers';

const TOO_MANY = 'Prea multe încercări. Te rugăm să încerci din nou peste câteva minute.';
const LOGIN_TOO_MANY = 'Prea multe încercări de autentificare. Te rugăm să încerci din nou peste câteva minute.';

/** An app whose per-address limits are the test config's (high) except the ones given. */
const appWith = (limits: Partial<RateLimits>) => testApp({ rateLimits: { ...testConfig().rateLimits, ...limits } });

function expectTooMany(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
  expect(res.json()).toMatchObject({ message: TOO_MANY });
}

const registerBody = (email: string, partnerId: number) => ({
  email,
  password: 'parola-sigura',
  phone: '0712345678',
  referral_code: null,
  cookies: [],
  marketing_accepted: true,
  registration_type: 2,
  partner_id: partnerId,
});

describe('login from one office address (defaults: LOGIN_MAX_ATTEMPTS, LOGIN_ADDRESS_MAX_FAILURES)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ loginMaxAttempts: loadConfig({}).loginMaxAttempts, loginAddressMaxFailures: loadConfig({}).loginAddressMaxFailures });
  });
  afterAll(() => app.close());

  // 51 password checks: a generous budget on a loaded machine (no timing is asserted).
  it('lets 51 different users who sign in correctly from one address all in', async () => {
    // 51 accounts written directly (one password hash for all): the registration is not what is tested.
    const passwordHash = await hashPassword('parola-birou');
    const partner = await partnerBySlug(app, 'neafiliat');
    const emails = Array.from({ length: 51 }, () => uniqueEmail('birou'));
    for (const email of emails) {
      await app.db.insert(users).values({ email, phone: '0712345678', passwordHash, registrationType: 2, partnerId: partner.id, frontendId: randomUUID() });
    }
    const statuses: number[] = [];
    for (const email of emails) {
      const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-birou' }, remoteAddress: '10.20.0.1' });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual(emails.map(() => 200));
  }, 180_000);
});

describe('POST /api/register: per address, default limit', () => {
  it('with the default limit, 30 registrations in a row from one address are not all accepted', async () => {
    const app = await appWith({ register: loadConfig({}).rateLimits.register });
    try {
      const partner = await partnerBySlug(app, 'neafiliat');
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await app.inject({ method: 'POST', url: '/api/register', payload: registerBody(uniqueEmail('val'), partner.id), remoteAddress: '10.40.0.1' });
        statuses.push(res.statusCode);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.slice(20)).toEqual(Array.from({ length: 10 }, () => 429));
    } finally {
      await app.close();
    }
  }, 120_000);
});

// Every limit below runs twice: counted in this process's memory, and in Redis (REDIS_URL).
const redisUp = await redisAvailable();
for (const store of ['memory', 'redis'] as const) {
  const prefix = redisRunPrefix('limits');
  let apps = 0;
  const makeApp = (overrides: Partial<AppConfig> = {}) =>
    store === 'redis' ? redisTestApp(`${prefix}${apps++}:`, overrides) : testApp(overrides);
  const makeAppWith = (limits: Partial<RateLimits>) => makeApp({ rateLimits: { ...testConfig().rateLimits, ...limits } });

  describe.skipIf(store === 'redis' && !redisUp)(`${store} store${store === 'redis' && !redisUp ? ` (${REDIS_SKIP_REASON})` : ''}`, () => {
    if (store === 'redis') {
      afterAll(async () => {
        // The run's counters were in Redis (some keys may have expired already), and are gone after it.
        await deleteKeys(prefix);
      });
    }

  describe('a locked-out owner gets in by the reset link', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await makeApp({ loginMaxAttempts: 3 });
    });
    afterAll(() => app.close());

    it('forgot-password still mails while the e-mail is locked; the reset lifts the lock and the login right after works', async () => {
      const { email, password } = await registerUser(app);
      // An attacker guesses from several addresses: the e-mail is locked, the owner too.
      for (let i = 0; i < 3; i++) {
        await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'gresita' }, remoteAddress: `10.30.0.${i}` });
      }
      const locked = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: '10.30.1.1' });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe(LOGIN_TOO_MANY);

      const forgot = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, remoteAddress: '10.30.1.1' });
      expect(forgot.statusCode).toBe(200);
      const [mail] = (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Resetează parola'));
      expect(mail).toBeDefined();
      const target = new URL(new URL(mail.links[0]).searchParams.get('url') as string);
      const reset = await app.inject({
        method: 'POST',
        url: target.pathname,
        payload: { password: 'parola-noua-1', password_confirmation: 'parola-noua-1' },
        remoteAddress: '10.30.1.1',
      });
      expect(reset.statusCode).toBe(200);

      const after = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-noua-1' }, remoteAddress: '10.30.1.1' });
      expect(after.statusCode).toBe(200);
      expect(after.json().payload.email).toBe(email);
    });
  });

  describe('POST /api/register: per address', () => {
    it('answers 429 with Retry-After and the Romanian message, creates nothing; other addresses still register', async () => {
      const app = await makeAppWith({ register: 2 });
      try {
        const partner = await partnerBySlug(app, 'neafiliat');
        for (let i = 0; i < 2; i++) {
          const ok = await app.inject({ method: 'POST', url: '/api/register', payload: registerBody(uniqueEmail('birou'), partner.id), remoteAddress: '10.40.1.1' });
          expect(ok.statusCode).toBe(200);
        }
        const email = uniqueEmail('prea-multe');
        const refused = await app.inject({ method: 'POST', url: '/api/register', payload: registerBody(email, partner.id), remoteAddress: '10.40.1.1' });
        expectTooMany(refused);
        expect(refused.json().payload).toMatchObject({ retry_after: expect.any(Number) });
        expect(await app.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);

        const elsewhere = await app.inject({ method: 'POST', url: '/api/register', payload: registerBody(email, partner.id), remoteAddress: '10.40.1.2' });
        expect(elsewhere.statusCode).toBe(200);
        // Bad input from a fresh address is still a 422 with field errors.
        const bad = await app.inject({ method: 'POST', url: '/api/register', payload: { ...registerBody('x', partner.id) }, remoteAddress: '10.40.1.3' });
        expect(bad.statusCode).toBe(422);
        expect(bad.json().payload).toEqual({ email: ['Adresa de e-mail nu este validă.'] });
      } finally {
        await app.close();
      }
    });
  });

  describe('POST /api/password/forgot: per address', () => {
    it('answers 429 beyond the limit and sends no mail', async () => {
      const app = await makeAppWith({ forgotPassword: 2 });
      try {
        const { email } = await registerUser(app);
        for (let i = 0; i < 2; i++) {
          const res = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: uniqueEmail('altul') }, remoteAddress: '10.50.0.1' });
          expect(res.statusCode).toBe(200);
        }
        expectTooMany(await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, remoteAddress: '10.50.0.1' }));
        const resetMails = async () => (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Resetează parola'));
        expect(await resetMails()).toHaveLength(0);
        const other = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, remoteAddress: '10.50.0.2' });
        expect(other.statusCode).toBe(200);
        expect(await resetMails()).toHaveLength(1);
      } finally {
        await app.close();
      }
    });
  });

  describe('identity sessions and uploads: per address', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await makeAppWith({ identitySession: 2, upload: 3 });
    });
    afterAll(() => app.close());

    const create = (token: string, ip: string) =>
      app.inject({ method: 'POST', url: '/api/veriff/create-veriff-session', payload: {}, headers: auth(token), remoteAddress: ip });

    it('POST /api/veriff/create-veriff-session answers 429 beyond the limit, for any user of that address', async () => {
      const first = await registerUser(app);
      const second = await registerUser(app);
      expect((await create(first.token, '10.60.0.1')).statusCode).toBe(200);
      expect((await create(second.token, '10.60.0.1')).statusCode).toBe(200);
      expectTooMany(await create(first.token, '10.60.0.1'));
      expectTooMany(await create(second.token, '10.60.0.1'));
      expect((await create(second.token, '10.60.0.2')).statusCode).toBe(200);
      // Without a valid token: 401, as before (sign-in is checked first).
      expect((await create('nu-exista', '10.60.0.3')).statusCode).toBe(401);
    });

    it('identity photos, documents and the signature share one upload limit per address', async () => {
      const user = await registerUser(app);
      const session = await createSession(app, user.token);
      const send = (context: string, data: Buffer, ip: string) =>
        multipartPayload({ session_id: session.session_id, context }, [{ filename: 'poza.png', data }]).then(({ payload, contentType }) =>
          app.inject({ method: 'POST', url: '/api/veriff/upload-image', payload, headers: { ...auth(user.token), 'content-type': contentType }, remoteAddress: ip }),
        );
      expect((await send('document-front', PNG, '10.61.0.1')).statusCode).toBe(200);
      expect((await send('document-back', JPEG, '10.61.0.1')).statusCode).toBe(200);
      // Bad input counts as an upload too, and is still a 422 with field errors.
      const bad = await send('nu-exista', WEBP, '10.61.0.1');
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().payload)).toEqual(['context']);
      const refused = await send('face', WEBP, '10.61.0.1');
      expectTooMany(refused);
      // The selfie was not stored.
      const last = await app.inject({ method: 'GET', url: '/api/veriff/get-last-session', headers: auth(user.token), remoteAddress: '10.61.0.2' });
      expect(last.json().payload.uploads).toMatchObject({ 'document-front': { file_id: expect.any(Number) }, face: null });

      // The signature step from the same address: the same counter.
      const signer = await registerUser(app, { type: 2 });
      await placeAtStep(app, signer, 'requesting-company-step-5');
      const before = await requestRowOf(app, signer);
      const { payload, contentType } = await multipartPayload({ current_step_identifier: 'requesting-company-step-5', signature: 'new' }, [
        { name: 'file', filename: 'semnatura.png', contentType: 'image/png', data: PNG },
      ]);
      const signature = (ip: string) =>
        app.inject({ method: 'POST', url: '/api/registration/collect/signature', payload, headers: { ...auth(signer.token), 'content-type': contentType }, remoteAddress: ip });
      expectTooMany(await signature('10.61.0.1'));
      expect(await requestRowOf(app, signer)).toEqual(before);
      expect((await signature('10.61.0.3')).statusCode).toBe(200);
      // The upload through the helper (another address) still works.
      expect((await upload(app, user.token, session.session_id, 'face', { filename: 'selfie.webp', data: WEBP })).statusCode).toBe(200);
    });
  });

  describe('company lookup ("Am PFA" fiscal code step): per address', () => {
    it('answers 429 beyond the limit and leaves the request as it was', async () => {
      const app = await makeAppWith({ companyLookup: 2 });
      try {
        const user = await registerUser(app, { type: 1 });
        await placeAtStep(app, user, 'existing-company-step-2');
        const collect = (fiscal_code: string, ip: string) =>
          app.inject({
            method: 'POST',
            url: '/api/registration/existing/collect/company',
            payload: { current_step_identifier: 'existing-company-step-2', fiscal_code },
            headers: auth(user.token),
            remoteAddress: ip,
          });
        for (let i = 0; i < 2; i++) {
          const bad = await collect('abc', '10.70.0.1');
          expect(bad.statusCode).toBe(422);
          expect(bad.json().payload).toEqual({ fiscal_code: ['Formatul nu este valid.'] });
        }
        const before = await requestRowOf(app, user);
        expectTooMany(await collect('42157397', '10.70.0.1'));
        expect(await requestRowOf(app, user)).toEqual(before);
        // Another user's token from another address is not affected.
        const other = await registerUser(app, { type: 1 });
        await placeAtStep(app, other, 'existing-company-step-2');
        const res = await app.inject({
          method: 'POST',
          url: '/api/registration/existing/collect/company',
          payload: { current_step_identifier: 'existing-company-step-2', fiscal_code: 'abc' },
          headers: auth(other.token),
          remoteAddress: '10.70.0.2',
        });
        expect(res.statusCode).toBe(422);
      } finally {
        await app.close();
      }
    });
  });
  });
}

describe.skipIf(!redisUp)(`Redis: two app instances count together${redisUp ? '' : ` (${REDIS_SKIP_REASON})`}`, () => {
  const prefix = redisRunPrefix('limits-shared');
  let a: FastifyInstance;
  let b: FastifyInstance;
  beforeAll(async () => {
    const overrides = { loginMaxAttempts: 3, loginAddressMaxFailures: 4, rateLimits: { ...testConfig().rateLimits, register: 2 } };
    a = await redisTestApp(prefix, overrides);
    b = await redisTestApp(prefix, overrides);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await deleteKeys(prefix);
  });

  const login = (app: FastifyInstance, email: string, password: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });

  it('failed logins of one e-mail on A and on B lock it on both, in Redis', async () => {
    const { email, password } = await registerUser(a);
    expect((await login(a, email, 'gresita', '10.80.0.1')).statusCode).toBe(422);
    expect((await login(b, email, 'gresita', '10.80.0.2')).statusCode).toBe(422);
    expect((await login(a, email, 'gresita', '10.80.0.3')).statusCode).toBe(422);
    for (const app of [a, b]) {
      const locked = await login(app, email, password, '10.80.0.4');
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe(LOGIN_TOO_MANY);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await a.redis?.get(`${prefix}attempts:login-email:${email}`)).toBe('3');
  });

  it('failed logins from one address on A and on B count together', async () => {
    for (const [i, app] of [a, b, a, b].entries()) {
      expect((await login(app, uniqueEmail(`adresa${i}`), 'gresita', '10.81.0.1')).statusCode).toBe(422);
    }
    const { email, password } = await registerUser(b);
    const refused = await login(a, email, password, '10.81.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(LOGIN_TOO_MANY);
    expect((await login(b, email, password, '10.81.0.2')).statusCode).toBe(200);
  });

  it('registrations from one address on A and on B share the per-address limit', async () => {
    const partner = await partnerBySlug(a, 'neafiliat');
    const register = (app: FastifyInstance, email: string) =>
      app.inject({ method: 'POST', url: '/api/register', payload: registerBody(email, partner.id), remoteAddress: '10.82.0.1' });
    expect((await register(a, uniqueEmail('a'))).statusCode).toBe(200);
    expect((await register(b, uniqueEmail('b'))).statusCode).toBe(200);
    const email = uniqueEmail('prea-multe');
    expectTooMany(await register(a, email));
    expect(await a.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});

describe('Redis unreachable: the limited routes refuse with 503, never skip the limit', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // Nothing listens on port 9 of this machine.
    app = await redisTestApp(redisRunPrefix('down'), { redisUrl: 'redis://127.0.0.1:9' });
  });
  afterAll(() => app.close());
  const UNAVAILABLE = { message: 'Serviciul nu este disponibil acum. Te rugăm să încerci din nou peste câteva minute.', payload: null };

  it('login, registration and forgot password answer 503 with the Romanian message; no account is created', async () => {
    const partner = await partnerBySlug(app, 'neafiliat');
    const email = uniqueEmail('fara-redis');
    const register = await app.inject({ method: 'POST', url: '/api/register', payload: registerBody(email, partner.id) });
    expect(register.statusCode).toBe(503);
    expect(register.json()).toEqual(UNAVAILABLE);
    expect(await app.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-sigura' } });
    expect(login.statusCode).toBe(503);
    expect(login.json()).toEqual(UNAVAILABLE);
    const forgot = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    expect(forgot.statusCode).toBe(503);
    expect(forgot.json()).toEqual(UNAVAILABLE);
  });
});
