import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { payments } from '../../server/db/schema';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser, requestRowOf as requestRow } from './helpers';
import { FakeStripe } from './fake-stripe';

const NEW_PRICING = 'requesting-company-step-9';
const EXISTING_PRICING = 'existing-company-step-4';
const PRICE = { neafiliat: 'price_ghiseu_standard_monthly', icredit: 'price_ghiseu_icredit_monthly', curier: 'price_ghiseu_curier_monthly' } as const;

const post = (app: FastifyInstance, url: string, payload: unknown, token?: string) =>
  app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: token ? auth(token) : {} });
const get = (app: FastifyInstance, url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });

async function atPricing(app: FastifyInstance, options: { type?: 1 | 2; partner?: keyof typeof PRICE } = {}) {
  const user = await registerUser(app, { type: options.type ?? 2, partner: options.partner ?? 'neafiliat' });
  await placeAtStep(app, user, options.type === 1 ? EXISTING_PRICING : NEW_PRICING);
  return user;
}

describe('payment with the built-in checkout (no Stripe configured)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it('the pricing step keeps the chosen price and stays; another partner’s price or a stale step changes nothing', async () => {
    const user = await atPricing(app, { partner: 'icredit' });
    const before = await requestRow(app, user);

    const foreign = await post(app, '/api/registration/collect/partner-price', { selected_stripe_id: PRICE.neafiliat, current_step_identifier: NEW_PRICING }, user.token);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().payload.selected_stripe_id).toEqual(['Alege unul dintre abonamentele afișate.']);
    const missing = await post(app, '/api/registration/collect/partner-price', { current_step_identifier: NEW_PRICING }, user.token);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload.selected_stripe_id).toBeDefined();
    const stale = await post(app, '/api/registration/collect/partner-price', { selected_stripe_id: PRICE.icredit, current_step_identifier: 'requesting-company-step-8' }, user.token);
    expect(stale.statusCode).toBe(409);
    expect((await requestRow(app, user)).version).toBe(before.version);

    const ok = await post(app, '/api/registration/collect/partner-price', { selected_stripe_id: PRICE.icredit, current_step_identifier: NEW_PRICING }, user.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.step).toBe(NEW_PRICING);
    expect(ok.json().payload.form_data.selected_stripe_id).toBe(PRICE.icredit);
    expect(ok.json().payload.paid).toBe(false);
  });

  for (const partner of ['neafiliat', 'icredit', 'curier'] as const) {
    it(`redirect for partner ${partner}: a checkout of this server for the partner's price`, async () => {
      const user = await atPricing(app, { partner });
      const res = await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE[partner] }, user.token);
      expect(res.statusCode).toBe(200);
      const { success, error_code, redirect_url } = res.json().payload;
      expect(success).toBe(true);
      expect(error_code).toBeNull();
      expect(redirect_url).toMatch(/^http:\/\/localhost:3000\/checkout\/pay_[\w-]+$/);
      const id = redirect_url.split('/').pop();
      const checkout = (await get(app, `/api/checkout/${id}`, user.token)).json().payload;
      expect(checkout).toMatchObject({ status: 'open', currency: 'RON', amount: partner === 'icredit' ? 130 : 119, interval: 'month', product: 'Ghișeu' });
      expect(checkout.successUrl).toBe(`http://localhost:3000/infiintare-pfa/plata?plata=${id}`);
      expect(checkout.cancelUrl).toBe(`http://localhost:3000/infiintare-pfa/plata?anulata=${id}`);
      if (partner === 'icredit') expect(checkout.partner.footnote).toContain('130 lei/lună în primele 3 luni');
    });
  }

  for (const [type, step] of [[1, EXISTING_PRICING], [2, NEW_PRICING]] as const) {
    it(`steps/next never steps over the unpaid pricing step (${step}), even with a chosen price`, async () => {
      const user = await atPricing(app, { type });
      const collect = type === 1 ? '/api/registration/existing/collect/partner-price' : '/api/registration/collect/partner-price';
      expect((await post(app, collect, { selected_stripe_id: PRICE.neafiliat, current_step_identifier: step }, user.token)).statusCode).toBe(200);
      // A checkout started and then cancelled: the price stays chosen, nothing is paid.
      expect((await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token)).statusCode).toBe(200);
      const before = await requestRow(app, user);
      const next = type === 1 ? '/api/registration/existing/steps/next' : '/api/registration/steps/next';
      const res = await post(app, next, { current_step_identifier: step }, user.token);
      expect(res.statusCode).toBe(422);
      expect(res.json().payload.current_step_identifier).toEqual(['Acest pas se încheie cu plata: alege abonamentul și plătește pentru a merge mai departe.']);
      const after = await requestRow(app, user);
      expect(after.step).toBe(step);
      expect(after.version).toBe(before.version);
      expect(after.paid).toBe(false);
    });
  }

  it('redirect refuses bad inputs and another step, and starts nothing', async () => {
    const user = await atPricing(app);
    const count = async () => (await app.db.select().from(payments).where(eq(payments.requestId, (await requestRow(app, user)).id))).length;
    expect((await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.icredit }, user.token)).statusCode).toBe(422);
    expect((await post(app, '/api/stripe/redirect', {}, user.token)).statusCode).toBe(422);
    await placeAtStep(app, user, 'requesting-company-step-8');
    const early = await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token);
    expect(early.statusCode).toBe(409);
    expect(early.json().payload.step).toBe('requesting-company-step-8');
    expect(await count()).toBe(0);
  });

  it('"Plătește" marks the request paid once; the new PFA stays at its last step and login opens the status page', async () => {
    const user = await atPricing(app);
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token)).json().payload;
    const id = redirect_url.split('/').pop();

    const pay = await post(app, `/api/checkout/${id}/pay`, {}, user.token);
    expect(pay.statusCode).toBe(200);
    expect(pay.json().payload.redirect_url).toBe(`http://localhost:3000/infiintare-pfa/plata?plata=${id}`);
    const paid = await requestRow(app, user);
    expect(paid.paid).toBe(true);
    expect(paid.paidAt).not.toBeNull();
    expect(paid.step).toBe(NEW_PRICING);

    // Paid twice (a double click, a second tab): nothing changes.
    expect((await post(app, `/api/checkout/${id}/pay`, {}, user.token)).statusCode).toBe(200);
    expect((await requestRow(app, user)).version).toBe(paid.version);
    // Cancelling a paid payment is refused.
    expect((await post(app, `/api/checkout/${id}/cancel`, {}, user.token)).statusCode).toBe(409);

    const open = (await get(app, '/api/registration/open', user.token)).json().payload;
    expect(open.paid).toBe(true);
    expect(open.paid_at).toEqual(expect.any(String));
    // Another checkout for a paid request: the error code, no redirect.
    const again = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token)).json().payload;
    expect(again).toEqual({ success: false, error_code: 'already_paid', redirect_url: null });
    const choose = await post(app, '/api/registration/collect/partner-price', { selected_stripe_id: PRICE.neafiliat, current_step_identifier: NEW_PRICING }, user.token);
    expect(choose.statusCode).toBe(422);
    expect(choose.json().payload.selected_stripe_id).toEqual(['Abonamentul tău este deja plătit.']);

    const login = (await post(app, '/api/login', { email: user.email, password: user.password })).json().payload;
    expect(login.requesting_company_paid).toBe(true);
    expect(login.dashboard_redirect).toBe(false);
  });

  it('"Anulează" leaves the request unpaid and goes back to the confirmation page; the cancelled checkout cannot be paid', async () => {
    const user = await atPricing(app);
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token)).json().payload;
    const id = redirect_url.split('/').pop();
    const cancel = await post(app, `/api/checkout/${id}/cancel`, {}, user.token);
    expect(cancel.json().payload.redirect_url).toBe(`http://localhost:3000/infiintare-pfa/plata?anulata=${id}`);
    expect((await get(app, `/api/checkout/${id}`, user.token)).json().payload.status).toBe('cancelled');
    const pay = await post(app, `/api/checkout/${id}/pay`, {}, user.token);
    expect(pay.statusCode).toBe(409);
    expect((await requestRow(app, user)).paid).toBe(false);
    // Retry: a new checkout works.
    const retry = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token)).json().payload;
    expect(retry.success).toBe(true);
    expect((await post(app, `/api/checkout/${retry.redirect_url.split('/').pop()}/pay`, {}, user.token)).statusCode).toBe(200);
    expect((await requestRow(app, user)).paid).toBe(true);
  });

  it('another user’s checkout answers 404 and stays unpaid; an unknown one 404; no token 401', async () => {
    const owner = await atPricing(app);
    const other = await atPricing(app);
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, owner.token)).json().payload;
    const id = redirect_url.split('/').pop();
    expect((await get(app, `/api/checkout/${id}`, other.token)).statusCode).toBe(404);
    expect((await post(app, `/api/checkout/${id}/pay`, {}, other.token)).statusCode).toBe(404);
    expect((await post(app, `/api/checkout/${id}/cancel`, {}, other.token)).statusCode).toBe(404);
    expect((await get(app, '/api/checkout/pay_nope', owner.token)).statusCode).toBe(404);
    expect((await requestRow(app, owner)).paid).toBe(false);
    expect((await get(app, `/api/checkout/${id}`, owner.token)).json().payload.status).toBe('open');
  });

  it('the existing PFA: paying moves the request to the identity step, and "back" skips the pricing step', async () => {
    const user = await atPricing(app, { type: 1 });
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.neafiliat }, user.token)).json().payload;
    const id = redirect_url.split('/').pop();
    const checkout = (await get(app, `/api/checkout/${id}`, user.token)).json().payload;
    expect(checkout.successUrl).toBe(`http://localhost:3000/inregistrare/plata?plata=${id}`);
    await post(app, `/api/checkout/${id}/pay`, {}, user.token);
    const open = (await get(app, '/api/registration/existing/open?no_next_step=1', user.token)).json().payload;
    expect(open.paid).toBe(true);
    expect(open.step).toBe('existing-company-step-5');
    expect(open.steps.previous).toEqual({ identifier: 'existing-company-step-3' });
    expect(open.variants).toContain('paid');
    expect(open.steps.total).toBe(6);
    expect(open.ghiseu_card_requested).toBeNull();
  });

  it('simulated payment: the current step only, then paid (twice is the same); bad input 422', async () => {
    const user = await atPricing(app);
    expect((await post(app, '/api/stripe/pay/simulate', {}, user.token)).statusCode).toBe(422);
    const stale = await post(app, '/api/stripe/pay/simulate', { current_step_identifier: 'requesting-company-step-8' }, user.token);
    expect(stale.statusCode).toBe(409);
    expect((await requestRow(app, user)).paid).toBe(false);

    const res = await post(app, '/api/stripe/pay/simulate', { current_step_identifier: NEW_PRICING }, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.paid).toBe(true);
    const version = (await requestRow(app, user)).version;
    expect((await post(app, '/api/stripe/pay/simulate', { current_step_identifier: NEW_PRICING }, user.token)).json().payload.paid).toBe(true);
    expect((await requestRow(app, user)).version).toBe(version);
  });

  it('simulated payment answers only clients on this machine: from another address 404, nothing paid', async () => {
    const user = await atPricing(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/stripe/pay/simulate',
      payload: { current_step_identifier: NEW_PRICING },
      headers: auth(user.token),
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(404);
    expect((await requestRow(app, user)).paid).toBe(false);
  });

  it('has no Stripe webhook without Stripe', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: '{}', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' } });
    expect(res.statusCode).toBe(404);
  });
});

describe('payment with Stripe Checkout', () => {
  const WEBHOOK_SECRET = 'whsec_test_secret';
  const stripe = new Stripe('sk_test_local');
  const fake = new FakeStripe();
  let app: FastifyInstance;
  beforeAll(async () => {
    await fake.start();
    app = await testApp({ stripeSecretKey: 'sk_test_local', stripeWebhookSecret: WEBHOOK_SECRET, stripeApiUrl: fake.url });
  });
  afterAll(async () => {
    await app.close();
    await fake.stop();
  });

  function signed(event: Record<string, unknown>, options: { secret?: string; timestamp?: number; body?: string } = {}) {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
    return app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: options.body ?? payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
  }

  const sessionEvent = (id: string, type: string, sessionId: string, paymentStatus = 'paid') => ({
    id,
    object: 'event',
    type,
    data: { object: { id: sessionId, object: 'checkout.session', payment_status: paymentStatus, metadata: {} } },
  });

  async function checkout(user: RegisteredUser, price: string) {
    const res = await post(app, '/api/stripe/redirect', { selected_stripe_id: price }, user.token);
    expect(res.statusCode).toBe(200);
    return res.json().payload as { success: boolean; error_code: string | null; redirect_url: string | null };
  }

  it('creates a Checkout Session for the partner price, the request and the confirmation page, in Romanian', async () => {
    const user = await atPricing(app, { partner: 'icredit' });
    const answer = await checkout(user, PRICE.icredit);
    expect(answer.success).toBe(true);
    const call = fake.calls.at(-1)!;
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(call.authorization).toBe('Bearer sk_test_local');
    expect(answer.redirect_url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\d+$/);
    const row = await requestRow(app, user);
    const [payment] = await app.db.select().from(payments).where(eq(payments.requestId, row.id));
    expect(call.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': PRICE.icredit,
      'line_items[0][quantity]': '1',
      client_reference_id: String(row.id),
      customer_email: user.email,
      locale: 'ro',
      success_url: `http://localhost:3000/infiintare-pfa/plata?plata=${payment.id}`,
      cancel_url: `http://localhost:3000/infiintare-pfa/plata?anulata=${payment.id}`,
    });
    expect(call.idempotencyKey).toBe(`checkout-${payment.id}`);
    expect(payment).toMatchObject({ provider: 'stripe', providerSessionId: answer.redirect_url!.split('/').pop(), status: 'open', amountBani: 13000 });
  });

  it('a Stripe outage answers the error code payment_unavailable', async () => {
    const user = await atPricing(app);
    fake.failNext = 3; // the SDK retries twice
    const answer = await checkout(user, PRICE.neafiliat);
    expect(answer).toEqual({ success: false, error_code: 'payment_unavailable', redirect_url: null });
    expect((await requestRow(app, user)).paid).toBe(false);
  });

  it('the signed checkout.session.completed event marks the request paid; a duplicate delivery changes nothing', async () => {
    const user = await atPricing(app);
    const session = (await checkout(user, PRICE.neafiliat)).redirect_url!.split('/').pop()!;
    const event = sessionEvent('evt_paid_1', 'checkout.session.completed', session);
    const res = await signed(event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'paid' });
    const row = await requestRow(app, user);
    expect(row.paid).toBe(true);

    const duplicate = await signed(event);
    expect(duplicate.statusCode).toBe(200);
    expect(duplicate.json().result).toBe('duplicate-event');
    expect((await requestRow(app, user)).version).toBe(row.version);
  });

  it('refuses a tampered, a replayed, an unsigned and a wrongly signed event, and nothing is paid', async () => {
    const user = await atPricing(app);
    const session = (await checkout(user, PRICE.neafiliat)).redirect_url!.split('/').pop()!;
    const event = sessionEvent('evt_bad_1', 'checkout.session.completed', session);

    const tampered = await signed(event, { body: JSON.stringify({ ...event, id: 'evt_bad_2' }) });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().message).toBe('Semnătura evenimentului nu este validă.');
    const replayed = await signed(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(replayed.statusCode).toBe(400);
    const wrongSecret = await signed(event, { secret: 'whsec_other' });
    expect(wrongSecret.statusCode).toBe(400);
    const unsigned = await app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: JSON.stringify(event), headers: { 'content-type': 'application/json' } });
    expect(unsigned.statusCode).toBe(400);
    expect((await requestRow(app, user)).paid).toBe(false);

    // The same event, properly signed and on time, still counts (refused deliveries were not recorded).
    expect((await signed(event)).json().result).toBe('paid');
  });

  it('a bank debit: completed but unpaid waits, async_payment_succeeded pays', async () => {
    const user = await atPricing(app, { type: 1 });
    const session = (await checkout(user, PRICE.neafiliat)).redirect_url!.split('/').pop()!;
    expect((await signed(sessionEvent('evt_async_1', 'checkout.session.completed', session, 'unpaid'))).statusCode).toBe(200);
    expect((await requestRow(app, user)).paid).toBe(false);
    expect((await signed(sessionEvent('evt_async_2', 'checkout.session.async_payment_succeeded', session))).json().result).toBe('paid');
    const row = await requestRow(app, user);
    expect(row.paid).toBe(true);
    expect(row.step).toBe('existing-company-step-5');
  });

  it('other events are acknowledged and change nothing; the simulated payment and the built-in checkout are not there', async () => {
    const user = await atPricing(app);
    const res = await signed({ id: 'evt_other', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
    expect(res.statusCode).toBe(200);
    expect((await post(app, '/api/stripe/pay/simulate', { current_step_identifier: NEW_PRICING }, user.token)).statusCode).toBe(404);
    const session = (await checkout(user, PRICE.neafiliat)).redirect_url!.split('/').pop()!;
    const [payment] = await app.db.select().from(payments).where(eq(payments.providerSessionId, session));
    expect((await post(app, `/api/checkout/${payment.id}/pay`, {}, user.token)).statusCode).toBe(404);
    expect((await requestRow(app, user)).paid).toBe(false);
  });
});
