/**
 * Billing of issue 17 (items 4 and 11): the payment received (a status item with amount and date,
 * the receipt mail, once), the credit partner's 130 → 72 plan as a Stripe Subscription Schedule
 * made once from the checkout webhook, and the subscription's failed invoices and end recorded on
 * the dossier from signed Stripe events (a replay recorded once), against the fake Stripe server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { partnerPrices, payments, timelineItems } from '../../server/db/schema';
import { phasesText } from '../../server/payment/billing';
import { auth, mailsTo, placeAtStep, registerUser, requestRowOf, testApp, type RegisteredUser } from './helpers';
import { FAKE_PERIOD_START, FakeStripe } from './fake-stripe';

const NEW_PRICING = 'requesting-company-step-9';
const EXISTING_PRICING = 'existing-company-step-4';
const PRICE = { neafiliat: 'price_ghiseu_standard_monthly', icredit: 'price_ghiseu_icredit_monthly' } as const;
const RECEIPT_SUBJECT = 'Plata a fost primită – Ghișeu';
const OPS_TOKEN = 'ops-token-billing-test-0123456789';

const post = (app: FastifyInstance, url: string, payload: unknown, token?: string) =>
  app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: token ? auth(token) : {} });
const get = (app: FastifyInstance, url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });

async function atPricing(app: FastifyInstance, partner: keyof typeof PRICE = 'neafiliat', type: 1 | 2 = 2) {
  const user = await registerUser(app, { type, partner });
  await placeAtStep(app, user, type === 1 ? EXISTING_PRICING : NEW_PRICING);
  return user;
}

const timelineOf = async (app: FastifyInstance, user: RegisteredUser) => {
  const row = await requestRowOf(app, user);
  return app.db.select().from(timelineItems).where(eq(timelineItems.requestId, row.id));
};
const receipts = async (app: FastifyInstance, user: RegisteredUser) => (await mailsTo(app, user.email)).filter((m) => m.subject === RECEIPT_SUBJECT);

describe('the receipt’s billing text, by the length of the introductory phase (Romanian plural forms)', () => {
  const price = (introMonths: number, interval: 'month' | 'year' = 'month') => ({ amountBani: 13000, currency: 'ron', interval, introMonths, thenAmountBani: 7200 });
  it.each([
    [1, '130 lei/lună în prima lună, apoi 72 lei/lună', '130 lei/month for the first month, then 72 lei/month'],
    [3, '130 lei/lună în primele 3 luni, apoi 72 lei/lună', '130 lei/month for the first 3 months, then 72 lei/month'],
    [24, '130 lei/lună în primele 24 de luni, apoi 72 lei/lună', '130 lei/month for the first 24 months, then 72 lei/month'],
  ])('%i month(s)', (months, romanian, english) => {
    expect(phasesText(price(months))).toBe(romanian);
    expect(phasesText(price(months), 'en')).toBe(english);
  });
  it('years', () => {
    expect(phasesText(price(1, 'year'))).toBe('130 lei/an în primul an, apoi 72 lei/an');
    expect(phasesText(price(2, 'year'))).toBe('130 lei/an în primii 2 ani, apoi 72 lei/an');
    expect(phasesText(price(20, 'year'))).toBe('130 lei/an în primii 20 de ani, apoi 72 lei/an');
  });
});

describe('the 130 → 72 plan in the seed data', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it('the credit partner’s price has its introductory phase: 130 lei for 3 months, then 72 lei', async () => {
    const [icredit] = await app.db.select().from(partnerPrices).where(eq(partnerPrices.stripePriceId, PRICE.icredit));
    expect(icredit).toMatchObject({ amountBani: 13000, interval: 'month', introMonths: 3, thenAmountBani: 7200, thenStripePriceId: 'price_ghiseu_icredit_monthly_after_intro' });
    const [standard] = await app.db.select().from(partnerPrices).where(eq(partnerPrices.stripePriceId, PRICE.neafiliat));
    expect(standard).toMatchObject({ amountBani: 11900, introMonths: null, thenAmountBani: null, thenStripePriceId: null });
  });

  it('GET /api/partner/index answers each plan with its price and phases, and the footnote', async () => {
    const res = await get(app, '/api/partner/index');
    expect(res.statusCode).toBe(200);
    const list = res.json().payload as { slug: string; footnote: string | null; prices: unknown[] }[];
    const icredit = list.find((p) => p.slug === 'icredit')!;
    expect(icredit.prices).toEqual([
      { stripe_id: PRICE.icredit, description: '130 lei/lună în primele 3 luni, apoi 72 lei/lună', amount: 130, currency: 'RON', interval: 'month', intro_months: 3, then_amount: 72 },
    ]);
    expect(icredit.footnote).toBe('130 lei/lună în primele 3 luni, inclusiv înființarea, apoi 72 lei/lună începând cu luna a patra.');
    const standard = list.find((p) => p.slug === 'neafiliat')!;
    expect(standard.prices).toEqual([
      { stripe_id: PRICE.neafiliat, description: 'Abonament lunar', amount: 119, currency: 'RON', interval: 'month', intro_months: null, then_amount: null },
    ]);
    expect(standard.footnote).toBeNull();
    // A bad query is refused with the field named, not a 5xx.
    const bad = await get(app, `/api/partner/index?selected_partner=${'x'.repeat(101)}`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload.selected_partner).toBeDefined();
  });
});

describe('payment received with the built-in checkout', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  async function checkoutId(user: RegisteredUser, price: string) {
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: price }, user.token)).json().payload;
    return (redirect_url as string).split('/').pop()!;
  }

  it('the built-in checkout shows the two phases of the 130 → 72 plan, one phase otherwise', async () => {
    const icredit = await atPricing(app, 'icredit');
    const id = await checkoutId(icredit, PRICE.icredit);
    const checkout = (await get(app, `/api/checkout/${id}`, icredit.token)).json().payload;
    expect(checkout.phases).toEqual([
      { amount: 130, intervals: 3 },
      { amount: 72, intervals: null },
    ]);
    const standard = await atPricing(app);
    const other = (await get(app, `/api/checkout/${await checkoutId(standard, PRICE.neafiliat)}`, standard.token)).json().payload;
    expect(other.phases).toEqual([{ amount: 119, intervals: null }]);
  });

  it('"Plătește": the status timeline has "payment_received" with amount and date, and one receipt is queued; paying again adds neither', async () => {
    const user = await atPricing(app, 'icredit');
    const id = await checkoutId(user, PRICE.icredit);
    expect(await receipts(app, user)).toEqual([]);
    expect((await post(app, `/api/checkout/${id}/pay`, {}, user.token)).statusCode).toBe(200);

    const open = (await get(app, '/api/registration/open', user.token)).json().payload;
    const row = await requestRowOf(app, user);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Bucharest' }).format(row.paidAt!);
    expect(open.status_timeline).toEqual([
      { id: expect.any(Number), type: 'payment_received', date: today, amount: 130, currency: 'RON', intro_months: 3, then_amount: 72, payment_id: id },
    ]);
    const [receipt] = await receipts(app, user);
    expect(receipt.text).toContain('Plata a fost primită. Îți mulțumim!');
    expect(receipt.text).toContain('Suma: 130,00 lei');
    expect(receipt.text).toContain('Abonament: 130 lei/lună în primele 3 luni, apoi 72 lei/lună');
    expect(receipt.text).toContain(`Referința plății: ${id}`);
    expect(receipt.links).toContain('http://localhost:3000/infiintare-pfa/status');

    // A double click, a second tab: the same payment again changes nothing.
    expect((await post(app, `/api/checkout/${id}/pay`, {}, user.token)).statusCode).toBe(200);
    expect(await timelineOf(app, user)).toHaveLength(1);
    expect(await receipts(app, user)).toHaveLength(1);
  });

  it('the simulated payment records the item and the receipt once too; a cancelled checkout neither', async () => {
    const user = await atPricing(app);
    const cancelled = await checkoutId(user, PRICE.neafiliat);
    expect((await post(app, `/api/checkout/${cancelled}/cancel`, {}, user.token)).statusCode).toBe(200);
    expect(await timelineOf(app, user)).toEqual([]);
    expect(await receipts(app, user)).toEqual([]);

    expect((await post(app, '/api/stripe/pay/simulate', { current_step_identifier: NEW_PRICING }, user.token)).statusCode).toBe(200);
    expect((await post(app, '/api/stripe/pay/simulate', { current_step_identifier: NEW_PRICING }, user.token)).statusCode).toBe(200);
    const items = await timelineOf(app, user);
    expect(items.map((i) => [i.type, i.data.amount])).toEqual([['payment_received', 119]]);
    const mails = await receipts(app, user);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('Suma: 119,00 lei');
    expect(mails[0].text).not.toContain('Abonament: ');
  });

  it('another applicant sees none of it', async () => {
    const payer = await atPricing(app);
    const other = await atPricing(app);
    await post(app, `/api/checkout/${await checkoutId(payer, PRICE.neafiliat)}/pay`, {}, payer.token);
    expect((await get(app, '/api/registration/open', other.token)).json().payload.status_timeline).toEqual([]);
    expect(await receipts(app, other)).toEqual([]);
  });

  it('the existing PFA: the receipt links to its flow', async () => {
    const user = await atPricing(app, 'neafiliat', 1);
    await post(app, `/api/checkout/${await checkoutId(user, PRICE.neafiliat)}/pay`, {}, user.token);
    const [receipt] = await receipts(app, user);
    expect(receipt.links).toContain('http://localhost:3000/inregistrare');
    expect((await timelineOf(app, user)).map((i) => i.type)).toEqual(['payment_received']);
  });
});

describe('Stripe: the introductory phase as a Subscription Schedule, failed invoices and the end of the subscription', () => {
  const WEBHOOK_SECRET = 'whsec_billing_secret';
  const stripe = new Stripe('sk_test_local');
  const fake = new FakeStripe();
  let app: FastifyInstance;
  beforeAll(async () => {
    await fake.start();
    app = await testApp({ stripeSecretKey: 'sk_test_local', stripeWebhookSecret: WEBHOOK_SECRET, stripeApiUrl: fake.url, opsToken: OPS_TOKEN });
  });
  afterAll(async () => {
    await app.close();
    await fake.stop();
  });

  function signed(event: Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
    return app.inject({ method: 'POST', url: '/api/stripe/webhook', payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } });
  }
  const unsigned = (event: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: JSON.stringify(event), headers: { 'content-type': 'application/json' } });

  const completed = (id: string, sessionId: string, subscription: string) => ({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', subscription, metadata: {} } },
  });
  const invoiceFailed = (id: string, subscription: string) => ({
    id,
    object: 'event',
    type: 'invoice.payment_failed',
    created: 1797933600, // 2026-12-22 10:00 UTC
    data: {
      object: {
        id: `in_${id}`,
        object: 'invoice',
        amount_due: 13000,
        currency: 'ron',
        next_payment_attempt: 1798192800, // 2026-12-25 10:00 UTC
        parent: { type: 'subscription_details', subscription_details: { subscription } },
      },
    },
  });
  const subscriptionDeleted = (id: string, subscription: string) => ({
    id,
    object: 'event',
    type: 'customer.subscription.deleted',
    created: 1798538400, // 2026-12-29 10:00 UTC
    data: { object: { id: subscription, object: 'subscription', status: 'canceled', ended_at: 1798538400 } },
  });

  async function paidSubscription(partner: keyof typeof PRICE, subscription: string) {
    const user = await atPricing(app, partner);
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE[partner] }, user.token)).json().payload;
    const session = (redirect_url as string).split('/').pop()!;
    const res = await signed(completed(`evt_paid_${subscription}`, session, subscription));
    return { user, session, res };
  }
  const scheduleCalls = () => fake.calls.filter((c) => c.path.startsWith('/v1/subscription_schedules'));

  it('the credit partner’s checkout becomes a schedule of two phases: 130 lei × 3 months, then 72 lei; a replayed event makes no second one', async () => {
    const before = scheduleCalls().length;
    const { user, session, res } = await paidSubscription('icredit', 'sub_icredit_1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'paid' });

    const calls = scheduleCalls().slice(before);
    const [payment] = await app.db.select().from(payments).where(eq(payments.providerSessionId, session));
    expect(payment).toMatchObject({ status: 'paid', providerSubscriptionId: 'sub_icredit_1', providerScheduleId: expect.stringMatching(/^sub_sched_test_\d+$/) });
    expect(calls.map((c) => c.path)).toEqual(['/v1/subscription_schedules', `/v1/subscription_schedules/${payment.providerScheduleId}`]);
    expect(calls[0].params).toEqual({ from_subscription: 'sub_icredit_1' });
    expect(calls[0].idempotencyKey).toBe('schedule-sub_icredit_1');
    expect(calls[1].params).toEqual({
      end_behavior: 'release',
      proration_behavior: 'none',
      'phases[0][items][0][price]': PRICE.icredit,
      'phases[0][items][0][quantity]': '1',
      'phases[0][start_date]': String(FAKE_PERIOD_START),
      'phases[0][duration][interval]': 'month',
      'phases[0][duration][interval_count]': '3',
      'phases[1][items][0][price]': 'price_ghiseu_icredit_monthly_after_intro',
      'phases[1][items][0][quantity]': '1',
      'phases[1][duration][interval]': 'month',
      'phases[1][duration][interval_count]': '1',
    });

    // Stripe delivers the same event again: acknowledged, no second schedule, no second receipt.
    const replay = await signed(completed('evt_paid_sub_icredit_1', session, 'sub_icredit_1'));
    expect(replay.statusCode).toBe(200);
    expect(replay.json().result).toBe('duplicate-event');
    expect(scheduleCalls().length).toBe(before + 2);
    expect(await receipts(app, user)).toHaveLength(1);
    expect((await timelineOf(app, user)).map((i) => i.type)).toEqual(['payment_received']);
  });

  it('a price without an introductory phase gets no schedule', async () => {
    const before = scheduleCalls().length;
    const { res } = await paidSubscription('neafiliat', 'sub_standard_1');
    expect(res.json().result).toBe('paid');
    expect(scheduleCalls().length).toBe(before);
  });

  it('Stripe down while scheduling: 503 (Stripe delivers again), the payment stays paid; the next delivery makes the schedule once', async () => {
    const user = await atPricing(app, 'icredit');
    const { redirect_url } = (await post(app, '/api/stripe/redirect', { selected_stripe_id: PRICE.icredit }, user.token)).json().payload;
    const session = (redirect_url as string).split('/').pop()!;
    const before = scheduleCalls().length;
    fake.failNext = 3; // the SDK retries twice
    const first = await signed(completed('evt_paid_outage', session, 'sub_icredit_outage'));
    expect(first.statusCode).toBe(503);
    expect((await requestRowOf(app, user)).paid).toBe(true);
    const [unscheduled] = await app.db.select().from(payments).where(eq(payments.providerSessionId, session));
    expect(unscheduled.providerScheduleId).toBeNull();

    const again = await signed(completed('evt_paid_outage', session, 'sub_icredit_outage'));
    expect(again.statusCode).toBe(200);
    expect(again.json().result).toBe('duplicate-event');
    const [scheduled] = await app.db.select().from(payments).where(eq(payments.providerSessionId, session));
    expect(scheduled.providerScheduleId).toMatch(/^sub_sched_test_\d+$/);
    expect(scheduleCalls().slice(before).filter((c) => c.path === '/v1/subscription_schedules/' + scheduled.providerScheduleId)).toHaveLength(1);
    expect(await receipts(app, user)).toHaveLength(1);

    // A third delivery: nothing more at Stripe.
    const count = scheduleCalls().length;
    expect((await signed(completed('evt_paid_outage', session, 'sub_icredit_outage'))).statusCode).toBe(200);
    expect(scheduleCalls().length).toBe(count);
  });

  it('invoice.payment_failed, signed: a "payment_failed" item on the dossier with amount and next attempt; replayed: recorded once', async () => {
    const { user } = await paidSubscription('icredit', 'sub_icredit_failed');
    const event = invoiceFailed('evt_failed_1', 'sub_icredit_failed');
    const res = await signed(event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, result: 'recorded' });
    const replay = await signed(event);
    expect(replay.statusCode).toBe(200);
    expect(replay.json().result).toBe('duplicate-event');

    const timeline = (await get(app, '/api/registration/open', user.token)).json().payload.status_timeline;
    expect(timeline.map((i: { type: string }) => i.type)).toEqual(['payment_received', 'payment_failed']);
    expect(timeline[1]).toMatchObject({ type: 'payment_failed', date: '2026-12-22', amount: 130, currency: 'RON', next_attempt_date: '2026-12-25' });
  });

  it('customer.subscription.deleted, signed: a "subscription_cancelled" item; replayed: recorded once', async () => {
    const { user } = await paidSubscription('neafiliat', 'sub_standard_deleted');
    const event = subscriptionDeleted('evt_deleted_1', 'sub_standard_deleted');
    expect((await signed(event)).json()).toEqual({ received: true, result: 'recorded' });
    expect((await signed(event)).json().result).toBe('duplicate-event');
    const items = await timelineOf(app, user);
    expect(items.map((i) => [i.type, i.date])).toEqual([
      ['payment_received', expect.any(String)],
      ['subscription_cancelled', '2026-12-29'],
    ]);
  });

  it('unsigned, wrongly signed or stale failed/deleted events are refused and record nothing', async () => {
    const { user } = await paidSubscription('neafiliat', 'sub_standard_refused');
    for (const event of [invoiceFailed('evt_refused_1', 'sub_standard_refused'), subscriptionDeleted('evt_refused_2', 'sub_standard_refused')]) {
      const none = await unsigned(event);
      expect(none.statusCode).toBe(400);
      expect(none.json().message).toBe('Semnătura evenimentului nu este validă.');
      expect((await signed(event, { secret: 'whsec_other' })).statusCode).toBe(400);
      expect((await signed(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).statusCode).toBe(400);
    }
    expect((await timelineOf(app, user)).map((i) => i.type)).toEqual(['payment_received']);
    // The same events, properly signed, still count (refused deliveries were not recorded).
    expect((await signed(invoiceFailed('evt_refused_1', 'sub_standard_refused'))).json().result).toBe('recorded');
  });

  it('events of a subscription this server did not open are acknowledged and change no dossier', async () => {
    const { user } = await paidSubscription('neafiliat', 'sub_standard_mine');
    const res = await signed(invoiceFailed('evt_foreign_1', 'sub_somebody_else'));
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toBe('unknown-subscription');
    const noSubscription = await signed({ id: 'evt_foreign_2', object: 'event', type: 'invoice.payment_failed', data: { object: { id: 'in_x', object: 'invoice', parent: null } } });
    expect(noSubscription.statusCode).toBe(200);
    expect((await timelineOf(app, user)).map((i) => i.type)).toEqual(['payment_received']);
  });

  it('the operator sees the billing items and the payment’s subscription and schedule in the dossier', async () => {
    const { user } = await paidSubscription('icredit', 'sub_icredit_ops');
    await signed(invoiceFailed('evt_ops_1', 'sub_icredit_ops'));
    const row = await requestRowOf(app, user);
    const res = await app.inject({ method: 'GET', url: `/api/ops/dossiers/${row.id}`, headers: { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' } });
    expect(res.statusCode).toBe(200);
    const dossier = res.json().payload;
    expect(dossier.timeline.map((i: { type: string }) => i.type)).toEqual(['payment_received', 'payment_failed']);
    expect(dossier.payments).toEqual([
      expect.objectContaining({ provider: 'stripe', status: 'paid', amount: 130, currency: 'RON', subscription_id: 'sub_icredit_ops', schedule_id: expect.stringMatching(/^sub_sched_test_\d+$/) }),
    ]);
  });
});
