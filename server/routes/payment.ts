import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import { currentStep, stepsInfo, type ResolvedFlow } from '../../src/core/flow';
import { partnerPrices, payments } from '../db/schema';
import { FieldValidationError, HttpError, notFound } from '../lib/http-errors';
import { browserOrigin } from '../lib/origin';
import type { UserRow } from '../lib/tokens';
import { staleStep, type PartnerRow, type RequestRow } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import { paymentWithRequest, requestById } from '../registration/store';
import { flowOf, markPaid, newPaymentId, recordEvent, returnUrls, type PaymentRow } from '../payment/service';
import { BILLING_EVENTS, PAID_EVENTS, StripeCheckout } from '../payment/stripe';
import { ensureIntroductorySchedule, priceTerms, recordSubscriptionEvent, rememberSubscription } from '../payment/billing';
import { PaymentProviderError } from '../payment/types';
import { onlyFromLoopback } from '../lib/loopback';
import { arrayOf, bool, errorReplies, nullInt, nullStr, num, obj, replies, requestReplies, str } from '../lib/api-schemas';
import { pricePhases } from '../../src/core/billing';

/** The redirect's answer: where to pay, or why not (`RedirectErrorCode`). */
const redirectAnswer = obj({ success: bool, error_code: { type: ['string', 'null'], enum: ['already_paid', 'payment_unavailable', null] }, redirect_url: nullStr });
/** The built-in checkout page's data. */
const checkoutAnswer = obj({
  id: str,
  status: str,
  amount: num,
  currency: str,
  interval: nullStr,
  phases: arrayOf(obj({ amount: num, intervals: nullInt })),
  description: nullStr,
  partner: obj({ name: str, is_unaffiliated: bool, footnote: nullStr }),
  product: str,
  successUrl: str,
  cancelUrl: str,
});
const leaveCheckout = replies(obj({ redirect_url: str }), 'Where the browser goes');

/** The step that is paid for: its submit's follow-up call is the payment redirect. */
export const REDIRECT_ENDPOINT = '/api/stripe/redirect';

export const PAYMENT_MESSAGES = {
  unknownPrice: 'Alege unul dintre abonamentele afișate.',
  simulateUnavailable: 'Plata simulată nu este disponibilă: plățile trec prin Stripe.',
  checkoutNotFound: 'Plata nu a fost găsită.',
  checkoutCancelled: 'Această plată a fost anulată. Alege din nou abonamentul pentru a plăti.',
  checkoutPaid: 'Această plată a fost deja făcută.',
  badSignature: 'Semnătura evenimentului nu este validă.',
  scheduleUnavailable: 'Abonamentul nu a putut fi programat la procesatorul de plăți; reîncercăm la următoarea livrare a evenimentului.',
} as const;

/** Error codes of the redirect answer; the browser shows their Romanian text (locales steps.json pricing.errors). */
export type RedirectErrorCode = 'already_paid' | 'payment_unavailable';

function isPaymentStep(resolved: ResolvedFlow, row: RequestRow): boolean {
  const step = currentStep(resolved, row.step);
  return step.submit.then?.endpoint === REDIRECT_ENDPOINT;
}

async function priceOf(app: FastifyInstance, partner: PartnerRow, stripeId: string | undefined) {
  if (!stripeId) return null;
  const [price] = await app.db
    .select()
    .from(partnerPrices)
    .where(and(eq(partnerPrices.partnerId, partner.id), eq(partnerPrices.stripePriceId, stripeId)));
  return price ?? null;
}

/** A payment of the signed-in user made through the built-in checkout, else 404 (someone else's: 404 too). */
async function builtinPaymentOf(app: FastifyInstance, user: UserRow, id: string): Promise<{ payment: PaymentRow; request: RequestRow }> {
  const found = await paymentWithRequest(app.db, id);
  if (!found || found.request.userId !== user.id || found.payment.provider !== 'builtin') throw notFound(PAYMENT_MESSAGES.checkoutNotFound);
  return found;
}

const priceBody = {
  type: 'object',
  required: ['selected_stripe_id'],
  properties: { selected_stripe_id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

const stepBody = {
  type: 'object',
  required: ['current_step_identifier'],
  properties: { current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

const paymentParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/**
 * Payment of the subscription (spec 001 §2 item 8, §4 "Pricing" and "Payment", §7): the redirect
 * to the payment page, the simulated payment, Stripe's webhook and the built-in checkout's calls.
 */
export default (async (app) => {
  const provider = app.payments;

  /** Starts a checkout for the chosen price of the user's partner; the browser goes to `redirect_url`. */
  app.post<{ Body: { selected_stripe_id: string } }>('/stripe/redirect', { preHandler: app.authenticate, schema: { body: priceBody, response: replies(redirectAnswer, 'The payment page, or why not') } }, async (request) => {
    const user = request.user as UserRow;
    const flow = flowOf(app, user.registrationType);
    const { request: row, partner, resolved, serialize } = await loadRequest(app, user, flow);
    const price = await priceOf(app, partner, request.body.selected_stripe_id);
    if (!price) throw new FieldValidationError({ selected_stripe_id: [PAYMENT_MESSAGES.unknownPrice] });
    if (row.paid) return { message: '', payload: { success: false, error_code: 'already_paid' satisfies RedirectErrorCode, redirect_url: null } };
    if (!isPaymentStep(resolved, row)) throw staleStep(await serialize());

    const paymentId = newPaymentId();
    await app.db.insert(payments).values({
      id: paymentId,
      requestId: row.id,
      provider: provider.name,
      stripePriceId: price.stripePriceId,
      amountBani: price.amountBani,
      currency: price.currency,
    });
    const origin = browserOrigin(app, request);
    try {
      const session = await provider.startCheckout({
        paymentId,
        requestId: row.id,
        customerEmail: user.email,
        price: { stripePriceId: price.stripePriceId, interval: price.interval || null },
        ...returnUrls(origin, flow, paymentId),
        origin,
      });
      await app.db.update(payments).set({ providerSessionId: session.providerSessionId }).where(eq(payments.id, paymentId));
      return { message: '', payload: { success: true, error_code: null, redirect_url: session.redirectUrl } };
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      request.log.error({ err: error.cause ?? error }, error.message);
      await app.db.update(payments).set({ status: 'failed' }).where(eq(payments.id, paymentId));
      return { message: '', payload: { success: false, error_code: 'payment_unavailable' satisfies RedirectErrorCode, redirect_url: null } };
    }
  });

  // Stripe signs the exact bytes it sent: this route reads its body raw (its own scope, so other routes still parse JSON).
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      '/stripe/webhook',
      {
        schema: {
          headers: { type: 'object', properties: { 'stripe-signature': { type: 'string', maxLength: 4000 } } },
          // Stripe reads the status only; the body is Stripe's convention, not the app's envelope.
          response: { 200: { type: 'object', properties: { received: { type: 'boolean' }, result: { type: 'string' } } }, ...errorReplies },
        },
        // Stripe's events are small; a larger body is not Stripe.
        bodyLimit: 512 * 1024,
      },
      async (request, reply) => {
        if (!(provider instanceof StripeCheckout)) throw notFound();
        let event: Stripe.Event;
        try {
          event = provider.verifyWebhook(request.body as Buffer, request.headers['stripe-signature'] as string | undefined);
        } catch {
          throw new HttpError(400, PAYMENT_MESSAGES.badSignature);
        }
        if (BILLING_EVENTS.has(event.type)) {
          const result = await recordSubscriptionEvent(app, event);
          if (result === 'unknown-subscription') request.log.warn({ event: event.id, type: event.type }, 'Stripe subscription event for a subscription this server did not open');
          return reply.send({ received: true, result });
        }
        if (!PAID_EVENTS.has(event.type)) {
          await recordEvent(app, event);
          return reply.send({ received: true });
        }
        const session = event.data.object as Stripe.Checkout.Session;
        // A completed checkout paid by bank debit is not paid yet: async_payment_succeeded follows.
        if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') {
          await recordEvent(app, event);
          return reply.send({ received: true });
        }
        const [payment] = await app.db.select().from(payments).where(eq(payments.providerSessionId, session.id));
        const paymentId = payment?.id ?? session.metadata?.payment_id;
        if (!paymentId) {
          request.log.warn({ session: session.id }, 'Stripe event for a checkout session this server did not start');
          await recordEvent(app, event);
          return reply.send({ received: true });
        }
        await rememberSubscription(app, paymentId, session);
        const result = await markPaid(app, paymentId, event);
        // A price with an introductory phase: the subscription becomes a two-phase schedule, once
        // (also on a later delivery of this event, if Stripe could not be reached the first time).
        try {
          await ensureIntroductorySchedule(app, provider, paymentId);
        } catch (error) {
          if (!(error instanceof PaymentProviderError)) throw error;
          request.log.error({ err: error.cause ?? error, payment: paymentId }, error.message);
          // Stripe delivers the event again later; the payment is recorded, only the schedule is retried.
          throw new HttpError(503, PAYMENT_MESSAGES.scheduleUnavailable);
        }
        return reply.send({ received: true, result });
      },
    );
  });

  // Development only: the simulated payment and the built-in checkout do not exist in production.
  if (app.config.production) return;

  /**
   * A payment without a card, where payments are simulated anyway (no Stripe configured): QA and
   * local use. Same code path as a real payment; answers the request (paid).
   */
  app.post<{ Body: { current_step_identifier: string } }>(
    '/stripe/pay/simulate',
    { preHandler: [onlyFromLoopback, app.authenticate], schema: { body: stepBody, response: requestReplies } },
    async (request) => {
      if (provider.name !== 'builtin') throw notFound(PAYMENT_MESSAGES.simulateUnavailable);
      const user = request.user as UserRow;
      const flow = flowOf(app, user.registrationType);
      const { request: row, partner, resolved, serialize } = await loadRequest(app, user, flow);
      if (row.paid) return { message: '', payload: await serialize() };
      const current = stepsInfo(resolved, row.step).current.identifier;
      if (request.body.current_step_identifier !== current || !isPaymentStep(resolved, row)) throw staleStep(await serialize());
      const [first] = await app.db.select().from(partnerPrices).where(eq(partnerPrices.partnerId, partner.id)).orderBy(asc(partnerPrices.sortOrder));
      const price = (await priceOf(app, partner, row.formData.selected_stripe_id as string | undefined)) ?? first;
      const paymentId = newPaymentId();
      await app.db.insert(payments).values({
        id: paymentId,
        requestId: row.id,
        provider: 'builtin',
        stripePriceId: price.stripePriceId,
        amountBani: price.amountBani,
        currency: price.currency,
      });
      await markPaid(app, paymentId);
      const updated = await requestById(app.db, row.id);
      return { message: '', payload: await serialize(updated ?? row) };
    },
  );

  /** The built-in checkout page's data: amount, partner, what is bought. */
  app.get<{ Params: { id: string } }>('/checkout/:id', { preHandler: app.authenticate, schema: { params: paymentParams, response: replies(checkoutAnswer, 'The built-in checkout page') } }, async (request) => {
    const { payment, request: row } = await builtinPaymentOf(app, request.user as UserRow, request.params.id);
    const { partner } = await loadRequest(app, request.user as UserRow, flowOf(app, row.registrationType));
    const [price] = await app.db.select().from(partnerPrices).where(eq(partnerPrices.stripePriceId, payment.stripePriceId));
    return {
      message: '',
      payload: {
        id: payment.id,
        status: payment.status,
        amount: payment.amountBani / 100,
        currency: payment.currency,
        interval: price?.interval ?? null,
        // What the subscription bills after this payment: one phase, or the introductory one and the later amount.
        phases: pricePhases({
          amount: payment.amountBani / 100,
          currency: payment.currency,
          interval: price?.interval ?? '',
          intro_months: price?.introMonths ?? null,
          then_amount: price ? priceTerms(price).then_amount : null,
        }),
        description: price?.description ?? null,
        partner: { name: partner.name, is_unaffiliated: partner.isUnaffiliated, footnote: partner.footnote },
        product: app.config.productName,
        ...returnUrls(browserOrigin(app, request), flowOf(app, row.registrationType), payment.id),
      },
    };
  });

  /** "Plătește": marks the payment paid (the webhook's code path) and answers where to go. */
  app.post<{ Params: { id: string } }>('/checkout/:id/pay', { preHandler: app.authenticate, schema: { params: paymentParams, response: leaveCheckout } }, async (request) => {
    const { payment, request: row } = await builtinPaymentOf(app, request.user as UserRow, request.params.id);
    if (payment.status === 'cancelled' || payment.status === 'failed') throw new HttpError(409, PAYMENT_MESSAGES.checkoutCancelled);
    await markPaid(app, payment.id);
    return { message: '', payload: { redirect_url: returnUrls(browserOrigin(app, request), flowOf(app, row.registrationType), payment.id).successUrl } };
  });

  /** "Anulează": the payment is given up; the browser goes back to the confirmation page, which offers the pricing again. */
  app.post<{ Params: { id: string } }>('/checkout/:id/cancel', { preHandler: app.authenticate, schema: { params: paymentParams, response: leaveCheckout } }, async (request) => {
    const { payment, request: row } = await builtinPaymentOf(app, request.user as UserRow, request.params.id);
    if (payment.status === 'paid') throw new HttpError(409, PAYMENT_MESSAGES.checkoutPaid);
    await app.db.update(payments).set({ status: 'cancelled' }).where(and(eq(payments.id, payment.id), eq(payments.status, 'open')));
    return { message: '', payload: { redirect_url: returnUrls(browserOrigin(app, request), flowOf(app, row.registrationType), payment.id).cancelUrl } };
  });
}) satisfies FastifyPluginAsync;
