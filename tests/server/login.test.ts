import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema';
import { auth, CALLBACK_ORIGIN, registerUser, testApp, uniqueEmail } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ loginMaxAttempts: 3, loginAddressMaxFailures: 15 });
});
afterAll(() => app.close());

const login = (email: string, password: string, ip = '10.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress: ip });

describe('POST /api/login', () => {
  it('signs in with the right password (any e-mail case) and returns the session user', async () => {
    const { email, password, user } = await registerUser(app, { type: 1 });
    const res = await login(email.toUpperCase(), password);
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload).toMatchObject({ id: user.id, email, registration_type: 1, dashboard_redirect: false, stop_flow: false, user_source: [] });
    expect(payload.access_token).not.toBe(user.access_token);
  });

  it('returns the flags that steer the redirect (dashboard_redirect, stop_flow)', async () => {
    const { email, password, user } = await registerUser(app);
    await app.db.update(users).set({ dashboardRedirect: true, stopFlow: true }).where(eq(users.id, user.id));
    const res = await login(email, password);
    expect(res.json().payload).toMatchObject({ dashboard_redirect: true, stop_flow: true });
  });

  it('refuses a wrong password with 422 under email and the Romanian message', async () => {
    const { email } = await registerUser(app);
    const res = await login(email, 'gresita', '10.0.0.2');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Datele de autentificare sunt incorecte.',
      payload: { email: ['Datele de autentificare sunt incorecte.'] },
    });
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const res = await login(uniqueEmail('nimeni'), 'oricare', '10.0.0.3');
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ email: ['Datele de autentificare sunt incorecte.'] });
  });

  it('refuses bad input with field errors', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ email: ['Adresa de e-mail nu este validă.'], password: ['Parola este obligatorie.'] });
  });

  it('limits failed attempts per e-mail, even from other addresses, then lets the owner in after the window', async () => {
    const { email, password } = await registerUser(app);
    for (let i = 0; i < 3; i++) expect((await login(email, 'gresita', `10.1.0.${i}`)).statusCode).toBe(422);
    const blocked = await login(email, password, '10.1.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(blocked.json().message).toBe('Prea multe încercări de autentificare. Te rugăm să încerci din nou peste câteva minute.');
    vi.useFakeTimers({ now: Date.now() + 15 * 60 * 1000 + 1000, toFake: ['Date'] });
    try {
      expect((await login(email, password, '10.1.0.9')).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits attempts per client address across e-mails', async () => {
    const ip = '10.2.0.1';
    let last = 0;
    for (let i = 0; i < 16; i++) last = (await login(uniqueEmail('spray'), 'x1', ip)).statusCode;
    expect(last).toBe(429);
  });

  it('a forged X-Forwarded-For does not give a client a fresh per-address limit', async () => {
    let last = 0;
    for (let i = 0; i < 16; i++) {
      last = (
        await app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: uniqueEmail('forged'), password: 'x1' },
          remoteAddress: '10.5.0.1',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it('behind a trusted proxy (TRUST_PROXY) the limit follows the client the proxy names', async () => {
    const proxied = await testApp({ loginMaxAttempts: 3, loginAddressMaxFailures: 15, trustProxy: ['10.9.0.1'] });
    try {
      const through = (client: string) =>
        proxied.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email: uniqueEmail('proxied'), password: 'x1' },
          remoteAddress: '10.9.0.1',
          headers: { 'x-forwarded-for': client },
        });
      let last = 0;
      for (let i = 0; i < 16; i++) last = (await through('198.51.100.7')).statusCode;
      expect(last).toBe(429);
      // Another client behind the same proxy is not blocked by the first one's attempts.
      expect((await through('198.51.100.8')).statusCode).toBe(422);
    } finally {
      await proxied.close();
    }
  });
});

describe('POST /api/logout', () => {
  it('revokes the token: it no longer works', async () => {
    const { token } = await registerUser(app);
    const res = await app.inject({ method: 'POST', url: '/api/logout', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(token) });
    expect(after.statusCode).toBe(401);
  });

  it("logging out one session leaves the user's other sessions alone", async () => {
    const { email, password, token } = await registerUser(app);
    const second = (await login(email, password, '10.3.0.1')).json().payload.access_token;
    await app.inject({ method: 'POST', url: '/api/logout', headers: auth(token) });
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(second) })).statusCode).toBe(200);
  });
});

describe('POST /api/auth (sign-in for another application)', () => {
  it('answers id_token, access_token and the callback URL carrying both', async () => {
    const { email, password, user } = await registerUser(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { email, password, source: 'contabilitate', callbackUrl: `${CALLBACK_ORIGIN}/intoarcere?x=1` },
    });
    expect(res.statusCode).toBe(200);
    const { id_token, access_token, redirect_url } = res.json().payload;
    const url = new URL(redirect_url);
    expect(url.origin + url.pathname).toBe(`${CALLBACK_ORIGIN}/intoarcere`);
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('id_token')).toBe(id_token);
    expect(url.searchParams.get('access_token')).toBe(access_token);
    const claims = JSON.parse(Buffer.from(id_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: String(user.id), email, aud: 'contabilitate', iss: 'http://localhost:3000' });
    // The access token is a real one.
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(access_token) })).statusCode).toBe(200);
  });

  it.each([['https://rau.example.com/cb'], ['http://contabil.partener.ro/cb'], ['javascript:alert(1)'], ['/relativ']])(
    'refuses the callback %s with 422 and gives no token',
    async (callbackUrl) => {
      const { email, password } = await registerUser(app);
      const res = await app.inject({ method: 'POST', url: '/api/auth', payload: { email, password, source: 'x', callbackUrl } });
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toEqual({ callbackUrl: ['Adresa de întoarcere nu este permisă.'] });
      expect(res.body).not.toContain('access_token');
    },
  );

  it('refuses wrong credentials for an allowed callback', async () => {
    const { email } = await registerUser(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { email, password: 'gresita', source: 'x', callbackUrl: `${CALLBACK_ORIGIN}/cb` },
      remoteAddress: '10.4.0.1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.email).toEqual(['Datele de autentificare sunt incorecte.']);
  });
});
