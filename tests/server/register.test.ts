import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../server/db/schema';
import { auth, mailsTo, partnerBySlug, registerUser, testApp, uniqueEmail } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

async function validPayload(overrides: Record<string, unknown> = {}) {
  const partner = await partnerBySlug(app, 'neafiliat');
  return {
    email: uniqueEmail('inreg'),
    password: 'parola1',
    phone: '0722123456',
    referral_code: null,
    cookies: [],
    marketing_accepted: true,
    registration_type: 2,
    partner_id: partner.id,
    ...overrides,
  };
}

async function userCount(email: string) {
  return (await app.db.select().from(users).where(eq(users.email, email.toLowerCase()))).length;
}

describe('POST /api/register', () => {
  it('creates the account, answers the session user and mails an e-mail verification link', async () => {
    const payload = await validPayload({ email: uniqueEmail('Nou').replace('nou', 'NOU') });
    const res = await app.inject({ method: 'POST', url: '/api/register', payload });
    expect(res.statusCode).toBe(200);
    const user = res.json().payload;
    expect(user).toMatchObject({
      email: payload.email.toLowerCase(),
      phone: '0722123456',
      registration_type: 2,
      dashboard_redirect: false,
      stop_flow: false,
      user_source: [],
    });
    expect(user.access_token).toMatch(/^[\w-]{40,}$/);
    const mails = await mailsTo(app, payload.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Confirmă adresa de e-mail pentru Ghișeu');
    expect(mails[0].links[0]).toMatch(/^http:\/\/localhost:3000\/api\/email\/verify\/[\w-]+$/);
  });

  it('stores the referral code and tracked cookies, and returns the user-source entries at login', async () => {
    const payload = await validPayload({
      referral_code: 'PRIETEN10',
      cookies: [
        { key: 'utm_source', value: 'facebook' },
        { key: 'ghiseu_first_source', value: 'facebook / cpc' },
        { key: 'ghiseu_userSource_firstTimestamp', value: '1732300000000' },
        { key: 'ghiseu_campaigns_list', value: 'toamna-2026' },
        { key: '_ga', value: 'GA1.1.123.456' },
      ],
    });
    await app.inject({ method: 'POST', url: '/api/register', payload });
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: payload.email, password: 'parola1' } });
    expect(login.statusCode).toBe(200);
    expect(login.json().payload.user_source).toEqual([
      { meta_key: 'ghiseu_first_source', meta_value: 'facebook / cpc' },
      { meta_key: 'ghiseu_userSource_firstTimestamp', meta_value: '1732300000000' },
      { meta_key: 'ghiseu_campaigns_list', meta_value: 'toamna-2026' },
    ]);
    const [row] = await app.db.select().from(users).where(eq(users.email, payload.email));
    expect(row.referralCode).toBe('PRIETEN10');
  });

  it('registers under a partner (type 1, icredit)', async () => {
    const icredit = await partnerBySlug(app, 'icredit');
    const payload = await validPayload({ registration_type: 1, partner_id: icredit.id });
    const res = await app.inject({ method: 'POST', url: '/api/register', payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.registration_type).toBe(1);
    const [row] = await app.db.select().from(users).where(eq(users.email, payload.email));
    expect(row.partnerId).toBe(icredit.id);
  });

  it.each([
    ['a phone that is not 07 followed by 8 digits', { phone: '0812345678' }, 'phone', 'Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.'],
    ['a phone with 9 digits after 07', { phone: '07123456789' }, 'phone', 'Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.'],
    ['a password under 6 characters', { password: '12345' }, 'password', 'Parola trebuie să aibă minim 6 caractere.'],
    ['a missing consent', { marketing_accepted: false }, 'marketing_accepted', 'Trebuie să accepți termenii și condițiile.'],
    ['an invalid e-mail', { email: 'nu-e-email' }, 'email', 'Adresa de e-mail nu este validă.'],
    ['an unknown partner', { partner_id: 999999 }, 'partner_id', 'Tipul de abonament ales nu există.'],
    ['an unknown registration type', { registration_type: 3 }, 'registration_type', 'Alege tipul de înregistrare.'],
  ])('refuses %s with 422 under the field and creates nothing', async (_name, overrides, field, message) => {
    const payload = await validPayload(overrides);
    const res = await app.inject({ method: 'POST', url: '/api/register', payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload[field]).toEqual([message]);
    expect(res.json().message).toBeTruthy();
    if (payload.email.includes('@')) expect(await userCount(payload.email)).toBe(0);
  });

  it('lists every missing field at once', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/register', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload).sort()).toEqual(
      ['email', 'marketing_accepted', 'partner_id', 'password', 'phone', 'registration_type'].sort(),
    );
    expect(res.json().payload.email).toEqual(['Adresa de e-mail este obligatorie.']);
  });

  it('refuses an e-mail that is taken, whatever its case, and changes nothing', async () => {
    const { email } = await registerUser(app);
    const res = await app.inject({ method: 'POST', url: '/api/register', payload: await validPayload({ email: email.toUpperCase(), phone: '0799999999' }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.email).toEqual(['Există deja un cont cu această adresă de e-mail.']);
    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    expect(row.phone).toBe('0712345678');
  });

  it('lets only one of two simultaneous registrations with the same e-mail through', async () => {
    const payload = await validPayload();
    const results = await Promise.all([
      app.inject({ method: 'POST', url: '/api/register', payload }),
      app.inject({ method: 'POST', url: '/api/register', payload }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
    expect(await userCount(payload.email)).toBe(1);
  });

  it('stores the password hashed with scrypt, never in clear', async () => {
    const { email, password } = await registerUser(app);
    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain(password);
  });

  it('hands out a token that works on authenticated calls', async () => {
    const { token } = await registerUser(app);
    const res = await app.inject({ method: 'GET', url: '/api/user/dashboard-redirect', headers: auth(token) });
    expect(res.statusCode).toBe(200);
  });
});
