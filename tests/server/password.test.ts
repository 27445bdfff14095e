import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, mailsTo, registerUser, testApp, uniqueEmail } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const SENT = 'Dacă adresa are un cont, ți-am trimis pe e-mail un link de resetare a parolei.';

async function resetTarget(email: string): Promise<string> {
  const [mail] = (await mailsTo(app, email)).filter((m) => m.subject.startsWith('Resetează parola'));
  const page = new URL(mail.links[0]);
  expect(page.pathname).toBe('/password/reset');
  return page.searchParams.get('url') as string;
}

describe('POST /api/password/forgot', () => {
  it('mails a reset link whose url points at this server’s own reset endpoint', async () => {
    const { email } = await registerUser(app);
    const res = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SENT);
    expect(await resetTarget(email)).toMatch(/^http:\/\/localhost:3000\/api\/password\/reset\/[\w-]{40,}$/);
  });

  it('answers an unknown address the same way and sends nothing', async () => {
    const email = uniqueEmail('necunoscut');
    const res = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(SENT);
    expect(await mailsTo(app, email)).toHaveLength(0);
  });

  it('refuses a malformed address with a field error', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: 'fara-arond' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ email: ['Adresa de e-mail nu este validă.'] });
  });

  it('sends at most 5 mails per address in the window', async () => {
    const { email } = await registerUser(app);
    for (let i = 0; i < 7; i++) await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    expect((await mailsTo(app, email)).filter((m) => m.subject.startsWith('Resetează'))).toHaveLength(5);
  });
});

describe('POST /api/password/reset/:token', () => {
  it('sets the new password once: login works with it, old sessions end, the link cannot be reused', async () => {
    const { email, password, token } = await registerUser(app);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    const target = new URL(await resetTarget(email));
    const body = { password: 'parola-noua', password_confirmation: 'parola-noua' };
    const res = await app.inject({ method: 'POST', url: target.pathname, payload: body });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Parola a fost schimbată. Te poți autentifica cu noua parolă.');

    expect((await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'parola-noua' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } })).statusCode).toBe(422);
    expect((await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(token) })).statusCode).toBe(401);

    const again = await app.inject({ method: 'POST', url: target.pathname, payload: body });
    expect(again.statusCode).toBe(422);
    expect(again.json().payload).toEqual({ token: ['Linkul de resetare a expirat sau a fost deja folosit. Cere unul nou.'] });
  });

  it('refuses a confirmation that differs, and a short password, without using the link', async () => {
    const { email, password } = await registerUser(app);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    const target = new URL(await resetTarget(email));
    const mismatch = await app.inject({ method: 'POST', url: target.pathname, payload: { password: 'abcdef', password_confirmation: 'abcdeg' } });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().payload).toEqual({ password_confirmation: ['Parolele nu coincid.'] });
    const short = await app.inject({ method: 'POST', url: target.pathname, payload: { password: 'abc', password_confirmation: 'abc' } });
    expect(short.json().payload).toEqual({ password: ['Parola trebuie să aibă minim 6 caractere.'] });
    // Nothing changed: the old password still works and the link is still good.
    expect((await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } })).statusCode).toBe(200);
    const ok = await app.inject({ method: 'POST', url: target.pathname, payload: { password: 'abcdef', password_confirmation: 'abcdef' } });
    expect(ok.statusCode).toBe(200);
  });

  it('shows a token error for an unknown token', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/password/reset/inventat',
      payload: { password: 'abcdef', password_confirmation: 'abcdef' },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload)).toEqual(['token']);
  });

  it('refuses a post from another site', async () => {
    const { email } = await registerUser(app);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } });
    const target = new URL(await resetTarget(email));
    const res = await app.inject({
      method: 'POST',
      url: target.pathname,
      headers: { origin: 'https://rau.example.com' },
      payload: { password: 'abcdef', password_confirmation: 'abcdef' },
    });
    expect(res.statusCode).toBe(403);
  });
});
