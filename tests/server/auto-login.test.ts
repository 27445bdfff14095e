import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, registerUser, testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

async function link(token: string, redirect?: string) {
  const url = redirect ? `/api/user/auto-login-link?redirect=${redirect}` : '/api/user/auto-login-link';
  return app.inject({ method: 'GET', url, headers: auth(token) });
}

describe('GET /api/user/auto-login-link + POST /api/auto-login', () => {
  it('makes a single-use link to a named route that signs the same user in', async () => {
    const { token, user } = await registerUser(app);
    const res = await link(token, 'requesting-company-step-1');
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().payload.auto_login_link);
    expect(url.origin + url.pathname).toBe('http://localhost:3000/auto-login');
    expect(url.searchParams.get('redirect')).toBe('requesting-company-step-1');
    const expires = new Date(res.json().payload.expires_at).getTime();
    expect(expires - Date.now()).toBeGreaterThan(9 * 60 * 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);

    const first = await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token: url.searchParams.get('token') } });
    expect(first.statusCode).toBe(200);
    expect(first.json().payload).toMatchObject({ id: user.id, email: user.email, redirect: 'requesting-company-step-1' });
    expect(first.json().payload.access_token).toBeTruthy();

    const second = await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token: url.searchParams.get('token') } });
    expect(second.statusCode).toBe(422);
    expect(second.json().payload.token).toEqual(['Linkul de autentificare a expirat sau a fost deja folosit.']);
  });

  it('expires after 10 minutes', async () => {
    const { token } = await registerUser(app);
    const secret = new URL((await link(token)).json().payload.auto_login_link).searchParams.get('token');
    vi.useFakeTimers({ now: Date.now() + 10 * 60 * 1000 + 1000, toFake: ['Date'] });
    try {
      const res = await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token: secret } });
      expect(res.statusCode).toBe(422);
    } finally {
      vi.useRealTimers();
    }
  });

  it('accepts only known route names as redirect', async () => {
    const { token } = await registerUser(app);
    const res = await link(token, 'https%3A%2F%2Frau.example.com');
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ redirect: ['Pagina cerută nu există.'] });
  });

  it('refuses the names every object has (constructor, __proto__, toString, valueOf) as redirect', async () => {
    const { token } = await registerUser(app);
    for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      const res = await link(token, name);
      expect(res.statusCode, name).toBe(422);
      expect(res.json().payload).toEqual({ redirect: ['Pagina cerută nu există.'] });
    }
  });

  it('refuses an unknown or missing token', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token: 'inventat' } })).statusCode).toBe(422);
    const res = await app.inject({ method: 'POST', url: '/api/auto-login', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.token).toEqual(['Câmpul este obligatoriu.']);
  });

  it("an auto-login token is not an access token, and an access token is not an auto-login token", async () => {
    const { token } = await registerUser(app);
    const secret = new URL((await link(token)).json().payload.auto_login_link).searchParams.get('token') as string;
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(secret) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token } })).statusCode).toBe(422);
  });
});

describe('GET /api/user/dashboard-redirect', () => {
  it('answers false and sets the dashboard_redirect=0 cookie for 5 minutes', async () => {
    const { token } = await registerUser(app);
    const res = await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(token) });
    expect(res.json().payload).toBe(false);
    const cookie = res.cookies.find((c) => c.name === 'dashboard_redirect');
    expect(cookie).toMatchObject({ value: '0', maxAge: 300, path: '/' });
  });

  it("answers for the token's own user only", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    const { users } = await import('../../server/db/schema');
    const { eq } = await import('drizzle-orm');
    await app.db.update(users).set({ dashboardRedirect: true }).where(eq(users.id, a.user.id));
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(a.token) })).json().payload).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(b.token) })).json().payload).toBe(false);
  });
});
