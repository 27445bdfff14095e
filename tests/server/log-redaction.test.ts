import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { maskUrl } from '../../server/lib/logging';
import { auth, mailsTo, registerUser, testConfig, testDatabase } from './helpers';

/** Everything the server logs, as text. */
let log = '';
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString();
    done();
  },
});

let app: FastifyInstance;
const CNP = '1900101400011';
const PASSWORD = 'parola-secreta-77';
const NEW_PASSWORD = 'parola-noua-secreta-88';
const COOKIE = 'sesiune-biscuit-secret-99';

beforeAll(async () => {
  app = await buildApp(testConfig(), { database: await testDatabase(), logStream: stream });
  // A route that fails as a real query does when it is handed a value it cannot use: the database
  // error quotes the value and Drizzle's error carries the bound parameters (a CNP and a password).
  app.post<{ Body: { cnp: string; password: string } }>('/api/proba/eroare', async (request) => {
    await app.db.execute(sql`select ${request.body.cnp}::date, ${request.body.password}::int`);
    return { message: 'ok', payload: null };
  });
  await app.ready();
});
afterAll(() => app.close());

describe('the server log', () => {
  it('holds no token, reset or verification link, password or CNP, also when a request fails', async () => {
    const { email, token } = await registerUser(app, { password: PASSWORD });
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: PASSWORD }, headers: { cookie: `sesiune=${COOKIE}` } });
    expect(login.statusCode).toBe(200);
    const accessToken = login.json().payload.access_token as string;
    expect(accessToken).toBeTruthy();
    await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(accessToken) });

    // An auto-login link (before the reset, which ends every session).
    const link = (await app.inject({ method: 'GET', url: '/api/user/auto-login-link', headers: auth(token) })).json().payload;
    const autoLogin = new URL(link.auto_login_link as string).searchParams.get('token')!;
    await app.inject({ method: 'GET', url: `/auto-login?token=${autoLogin}` });
    await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token: autoLogin } });

    // A reset link, as the mail has it (the page with the API link in its query) and as the page posts it.
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    const [mail] = (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Resetează parola'));
    const page = new URL(mail.links[0]);
    const api = new URL(page.searchParams.get('url')!);
    const resetToken = api.pathname.split('/').pop()!;
    await app.inject({ method: 'GET', url: page.pathname + page.search });
    const reset = await app.inject({ method: 'POST', url: api.pathname, payload: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
    expect(reset.statusCode).toBe(200);

    // A verification link, the dashboard hand-over, a CNP typed into a search.
    const verifyToken = 'b'.repeat(48);
    await app.inject({ method: 'GET', url: `/api/email/verify/${verifyToken}` });
    await app.inject({ method: 'GET', url: `/sso/${accessToken}` });
    await app.inject({ method: 'GET', url: `/api/nomenclature/city/index/0/10?search_term=${CNP}` });

    // A 500 whose error holds the CNP and the password.
    const failed = await app.inject({ method: 'POST', url: '/api/proba/eroare', payload: { cnp: CNP, password: PASSWORD } });
    expect(failed.statusCode).toBe(500);

    // The log did record these requests and the error…
    expect(log).toContain('/api/password/reset/[redactat]');
    expect(log).toContain('/api/email/verify/[redactat]');
    expect(log).toContain('"level":50');
    expect(log).toContain('/api/proba/eroare');
    // …and none of the secrets.
    for (const secret of [PASSWORD, NEW_PASSWORD, COOKIE, CNP, token, accessToken, resetToken, autoLogin, verifyToken]) {
      expect(log.includes(secret), `the log holds ${secret}`).toBe(false);
    }
  });
});

describe('maskUrl', () => {
  it('masks tokens in paths and queries, encoded links and CNPs; keeps route names', () => {
    expect(maskUrl('/api/password/reset/abc')).toBe('/api/password/reset/[redactat]');
    expect(maskUrl('/sso/xyz?x=1')).toBe('/sso/[redactat]?x=1');
    expect(maskUrl('/auto-login?token=abc&redirect=overview')).toBe('/auto-login?token=[redactat]&redirect=overview');
    expect(maskUrl(`/password/reset?url=http%3A%2F%2Fh%2Fapi%2Fpassword%2Freset%2F${'a'.repeat(43)}`)).toBe('/password/reset?url=[redactat]');
    expect(maskUrl(`/api/x?q=${CNP}`)).toBe('/api/x?q=[redactat]');
    expect(maskUrl('/api/user-meta/attorney-acknowledgement')).toBe('/api/user-meta/attorney-acknowledgement');
  });
});
