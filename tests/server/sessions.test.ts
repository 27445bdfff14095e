import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { tokens } from '../../server/db/schema';
import { hashToken } from '../../server/lib/tokens';
import { auth, mailsTo, registerUser, testApp } from './helpers';

const EXPIRED = 'Sesiunea a expirat. Te rugăm să te autentifici din nou.';
const IDLE_MINUTES = 30;

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ accessTokenIdleMinutes: IDLE_MINUTES });
});
afterAll(() => app.close());

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000);
const row = async (secret: string) => (await app.db.select().from(tokens).where(eq(tokens.tokenHash, hashToken(secret))))[0];
const setToken = (secret: string, values: Partial<typeof tokens.$inferInsert>) =>
  app.db.update(tokens).set(values).where(eq(tokens.tokenHash, hashToken(secret)));
const me = (token: string) => app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(token) });

describe('idle expiry of access tokens (ACCESS_TOKEN_IDLE_MINUTES)', () => {
  it('a token unused for longer than the idle time answers 401 like an expired one', async () => {
    const { token } = await registerUser(app);
    expect((await me(token)).statusCode).toBe(200);
    await setToken(token, { lastUsedAt: minutesAgo(IDLE_MINUTES + 1) });
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: EXPIRED, payload: null });
    // It stays expired: the refused request did not bring it back.
    expect((await me(token)).statusCode).toBe(401);
  });

  it('a token never used since it was issued expires from its creation', async () => {
    const { token } = await registerUser(app);
    await setToken(token, { createdAt: minutesAgo(IDLE_MINUTES + 1), lastUsedAt: null });
    expect((await me(token)).statusCode).toBe(401);
  });

  it('a token used within the idle time keeps working, and each use moves the idle time on', async () => {
    const { token } = await registerUser(app);
    await setToken(token, { createdAt: minutesAgo(IDLE_MINUTES * 3), lastUsedAt: minutesAgo(IDLE_MINUTES - 1) });
    expect((await me(token)).statusCode).toBe(200);
    const touched = (await row(token)).lastUsedAt as Date;
    expect(touched.getTime()).toBeGreaterThan(minutesAgo(1).getTime());
    expect((await me(token)).statusCode).toBe(200);
  });

  it('does not write last_used_at on every request: at most once a minute per token', async () => {
    const { token } = await registerUser(app);
    const recent = minutesAgo(0.5);
    await setToken(token, { lastUsedAt: recent });
    expect((await me(token)).statusCode).toBe(200);
    expect((await row(token)).lastUsedAt?.getTime()).toBe(recent.getTime());

    const older = minutesAgo(2);
    await setToken(token, { lastUsedAt: older });
    expect((await me(token)).statusCode).toBe(200);
    expect((await row(token)).lastUsedAt!.getTime()).toBeGreaterThan(older.getTime());
  });

  it("another user's idle token does not touch this user's session", async () => {
    const mine = await registerUser(app);
    const theirs = await registerUser(app);
    await setToken(theirs.token, { lastUsedAt: minutesAgo(IDLE_MINUTES + 5) });
    expect((await me(theirs.token)).statusCode).toBe(401);
    expect((await me(mine.token)).statusCode).toBe(200);
  });
});

describe('a password reset signs out everywhere', () => {
  it('revokes every session and every other link of the user; other users keep theirs', async () => {
    const { email, password, token } = await registerUser(app);
    const other = await registerUser(app);
    const second = (await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } })).json().payload.access_token as string;
    const link = await app.inject({ method: 'GET', url: '/api/user/auto-login-link', headers: auth(second) });
    const autoLogin = new URL(link.json().payload.auto_login_link).searchParams.get('token');
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(second)).statusCode).toBe(200);

    // Two reset mails: the first link is used, the second must die with it.
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    const targets = (await mailsTo(app, email))
      .filter((m) => m.subject.startsWith('Resetează parola'))
      .map((m) => new URL(new URL(m.links[0]).searchParams.get('url') as string).pathname);
    expect(targets).toHaveLength(2);
    const body = { password: 'parola-noua-2', password_confirmation: 'parola-noua-2' };
    expect((await app.inject({ method: 'POST', url: targets[0], payload: body })).statusCode).toBe(200);

    for (const session of [token, second]) {
      const res = await me(session);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(EXPIRED);
    }
    const auto = await app.inject({ method: 'POST', url: '/api/auto-login', payload: { token: autoLogin } });
    expect(auto.statusCode).toBe(422);
    expect(auto.json().payload).toEqual({ token: ['Linkul de autentificare a expirat sau a fost deja folosit.'] });
    const again = await app.inject({ method: 'POST', url: targets[1], payload: body });
    expect(again.statusCode).toBe(422);
    expect(again.json().payload).toEqual({ token: ['Linkul de resetare a expirat sau a fost deja folosit. Cere unul nou.'] });

    expect((await me(other.token)).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-noua-2' } })).statusCode).toBe(200);
  });

  it('a bad reset (passwords that differ) changes nothing: every session still works', async () => {
    const { email, token } = await registerUser(app);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    const [mail] = (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Resetează parola'));
    const target = new URL(new URL(mail.links[0]).searchParams.get('url') as string).pathname;
    const res = await app.inject({ method: 'POST', url: target, payload: { password: 'parola-noua-3', password_confirmation: 'alta-parola' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ password_confirmation: ['Parolele nu coincid.'] });
    expect((await me(token)).statusCode).toBe(200);
  });
});
