import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { payments } from '../../server/db/schema';
import { auth, mailsTo, partnerBySlug, placeAtStep, registerUser, requestRowOf, testApp, uniqueEmail, type RegisteredUser } from './helpers';

/**
 * Issue 19: with PUBLIC_URL unset (development), links handed back to the browser that asked for
 * them follow that request's origin; PUBLIC_URL, when set, always wins; mail links never follow a
 * request's Host or X-Forwarded-Host.
 */
const NEW_PRICING = 'requesting-company-step-9';
const PRICE = 'price_ghiseu_standard_monthly';
const UNSET = { publicUrl: 'http://localhost:3000', publicUrlSet: false } as const;
const SET = { publicUrl: 'https://ghiseu.exemplu.ro', publicUrlSet: true } as const;

async function atPricing(app: FastifyInstance): Promise<RegisteredUser> {
  const user = await registerUser(app, { type: 2, partner: 'neafiliat' });
  await placeAtStep(app, user, NEW_PRICING);
  return user;
}

function startCheckout(app: FastifyInstance, token: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/stripe/redirect', payload: { selected_stripe_id: PRICE }, headers: { ...auth(token), ...headers } });
}

function qrLink(app: FastifyInstance, token: string, headers: Record<string, string> = {}, redirect = 'requesting-company-step-1') {
  return app.inject({ method: 'GET', url: `/api/user/auto-login-link?redirect=${redirect}`, headers: { ...auth(token), ...headers } });
}

/** Registers through the API with the given headers (the registration mail is sent then). */
async function registerWith(app: FastifyInstance, headers: Record<string, string>): Promise<string> {
  const email = uniqueEmail('origine');
  const partner = await partnerBySlug(app, 'neafiliat');
  const res = await app.inject({
    method: 'POST',
    url: '/api/register',
    headers,
    payload: { email, password: 'parola-sigura', phone: '0712345678', referral_code: null, cookies: [], marketing_accepted: true, registration_type: 2, partner_id: partner.id },
  });
  expect(res.statusCode).toBe(200);
  return email;
}

describe('PUBLIC_URL unset: the checkout and the QR link follow the origin of the request', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp(UNSET);
  });
  afterAll(() => app.close());

  it('the built-in checkout, its return and its "Plătește" answer stay on http://127.0.0.1:3000 for a visitor of that address', async () => {
    const user = await atPricing(app);
    const res = await startCheckout(app, user.token, { host: '127.0.0.1:3000' });
    expect(res.statusCode).toBe(200);
    const redirectUrl: string = res.json().payload.redirect_url;
    expect(redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/checkout\/pay_[\w-]+$/);
    const id = redirectUrl.split('/').pop()!;

    const checkout = await app.inject({ method: 'GET', url: `/api/checkout/${id}`, headers: { ...auth(user.token), host: '127.0.0.1:3000' } });
    expect(checkout.json().payload.successUrl).toBe(`http://127.0.0.1:3000/infiintare-pfa/plata?plata=${id}`);
    expect(checkout.json().payload.cancelUrl).toBe(`http://127.0.0.1:3000/infiintare-pfa/plata?anulata=${id}`);

    // Another user's token: the payment is not theirs (404), and it stays unpaid.
    const other = await registerUser(app);
    const foreign = await app.inject({ method: 'POST', url: `/api/checkout/${id}/pay`, headers: { ...auth(other.token), host: '127.0.0.1:3000' } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Plata nu a fost găsită.');

    const pay = await app.inject({ method: 'POST', url: `/api/checkout/${id}/pay`, headers: { ...auth(user.token), host: '127.0.0.1:3000' } });
    expect(pay.statusCode).toBe(200);
    expect(pay.json().payload.redirect_url).toBe(`http://127.0.0.1:3000/infiintare-pfa/plata?plata=${id}`);
  });

  it('the machine’s name works the same; an unknown price answers 422 and starts nothing', async () => {
    const user = await atPricing(app);
    const bad = await app.inject({ method: 'POST', url: '/api/stripe/redirect', payload: { selected_stripe_id: 'price_inventat' }, headers: { ...auth(user.token), host: 'birou-pc:3000' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload.selected_stripe_id).toBeDefined();
    const row = await requestRowOf(app, user);
    expect(await app.db.select().from(payments).where(eq(payments.requestId, row.id))).toHaveLength(0);

    const res = await startCheckout(app, user.token, { host: 'birou-pc:3000' });
    expect(res.json().payload.redirect_url).toMatch(/^http:\/\/birou-pc:3000\/checkout\//);
  });

  it('the QR hand-over link follows the request’s origin; an unknown page answers 422', async () => {
    const user = await registerUser(app);
    const res = await qrLink(app, user.token, { host: '192.168.1.20:3000' });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().payload.auto_login_link);
    expect(url.origin + url.pathname).toBe('http://192.168.1.20:3000/auto-login');

    const bad = await qrLink(app, user.token, { host: '192.168.1.20:3000' }, 'nicaieri');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload.redirect).toEqual(['Pagina cerută nu există.']);
  });

  it('without a trusted proxy X-Forwarded-Host and X-Forwarded-Proto are ignored', async () => {
    const user = await registerUser(app);
    const res = await qrLink(app, user.token, { host: '127.0.0.1:3000', 'x-forwarded-host': 'rau.exemplu.com', 'x-forwarded-proto': 'https' });
    expect(new URL(res.json().payload.auto_login_link).origin).toBe('http://127.0.0.1:3000');
  });

  it('a Host that is no host name falls back to http://localhost:PORT', async () => {
    const user = await registerUser(app);
    const res = await qrLink(app, user.token, { host: 'rau.exemplu.com/cale?x=1' });
    expect(new URL(res.json().payload.auto_login_link).origin).toBe('http://localhost:3000');
  });

  it('mail links keep http://localhost:3000 whatever Host and X-Forwarded-Host say (password reset, e-mail verification)', async () => {
    const forged = { host: 'rau.exemplu.com', 'x-forwarded-host': 'rau2.exemplu.com', 'x-forwarded-proto': 'https' };
    const email = await registerWith(app, forged);
    const [verify] = await mailsTo(app, email);
    expect(verify.links.length).toBeGreaterThan(0);
    for (const link of verify.links) expect(new URL(link).origin).toBe('http://localhost:3000');
    expect(verify.html).not.toContain('rau');

    const forgot = await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, headers: forged });
    expect(forgot.statusCode).toBe(200);
    const reset = (await mailsTo(app, email)).find((mail) => mail.id !== verify.id)!;
    expect(reset.links.some((link) => link.startsWith('http://localhost:3000/password/reset?url='))).toBe(true);
    for (const link of reset.links) expect(new URL(link).origin).toBe('http://localhost:3000');
    expect(reset.html + reset.text).not.toContain('rau');
  });
});

describe('PUBLIC_URL unset behind a trusted proxy (TRUST_PROXY)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ ...UNSET, trustProxy: true });
  });
  afterAll(() => app.close());

  it('the QR link and the checkout follow X-Forwarded-Proto and X-Forwarded-Host', async () => {
    const user = await atPricing(app);
    const proxied = { host: '127.0.0.1:3000', 'x-forwarded-host': 'dev.exemplu.ro', 'x-forwarded-proto': 'https' };
    expect(new URL((await qrLink(app, user.token, proxied)).json().payload.auto_login_link).origin).toBe('https://dev.exemplu.ro');
    expect((await startCheckout(app, user.token, proxied)).json().payload.redirect_url).toMatch(/^https:\/\/dev\.exemplu\.ro\/checkout\//);
  });

  it('mail links still keep http://localhost:3000', async () => {
    const forged = { host: 'rau.exemplu.com', 'x-forwarded-host': 'rau2.exemplu.com', 'x-forwarded-proto': 'https' };
    const email = await registerWith(app, forged);
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, headers: forged });
    const mails = await mailsTo(app, email);
    expect(mails).toHaveLength(2);
    for (const link of mails.flatMap((mail) => mail.links)) expect(new URL(link).origin).toBe('http://localhost:3000');
  });
});

describe('PUBLIC_URL set: it always wins', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp({ ...SET, trustProxy: true });
  });
  afterAll(() => app.close());

  it('the checkout, its return and the QR link ignore Host and X-Forwarded-Host', async () => {
    const user = await atPricing(app);
    const headers = { host: '127.0.0.1:3000', 'x-forwarded-host': 'rau.exemplu.com', 'x-forwarded-proto': 'http' };
    const redirectUrl: string = (await startCheckout(app, user.token, headers)).json().payload.redirect_url;
    expect(redirectUrl).toMatch(/^https:\/\/ghiseu\.exemplu\.ro\/checkout\/pay_/);
    const id = redirectUrl.split('/').pop()!;
    const checkout = await app.inject({ method: 'GET', url: `/api/checkout/${id}`, headers: { ...auth(user.token), ...headers } });
    expect(checkout.json().payload.successUrl).toBe(`https://ghiseu.exemplu.ro/infiintare-pfa/plata?plata=${id}`);
    const link = new URL((await qrLink(app, user.token, headers)).json().payload.auto_login_link);
    expect(link.origin + link.pathname).toBe('https://ghiseu.exemplu.ro/auto-login');
  });

  it('mail links use PUBLIC_URL', async () => {
    const email = await registerWith(app, { host: 'rau.exemplu.com', 'x-forwarded-host': 'rau2.exemplu.com' });
    await app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, headers: { host: 'rau.exemplu.com' } });
    const mails = await mailsTo(app, email);
    expect(mails).toHaveLength(2);
    for (const link of mails.flatMap((mail) => mail.links)) expect(new URL(link).origin).toBe('https://ghiseu.exemplu.ro');
  });
});
