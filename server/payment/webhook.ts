import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { payments } from '../db/schema';
import { HttpError } from '../lib/http-errors';
import { ensureIntroductorySchedule, recordSubscriptionEvent, rememberSubscription } from './billing';
import { PAYMENT_MESSAGES } from './checkout';
import { markPaid, recordEvent } from './service';
import { BILLING_EVENTS, PAID_EVENTS, type StripeCheckout } from './stripe';
import { PaymentProviderError } from './types';

/**
 * One verified Stripe event (`POST /api/stripe/webhook`, server/routes/payment.ts): a subscription's
 * invoice or end (billing.ts), a paid checkout (the one code path of `markPaid`), or an event only
 * recorded. Answers Stripe's body (`received`, and what it did); 503 when the paid checkout's
 * introductory schedule could not be made (Stripe delivers the event again).
 */
export async function handleStripeEvent(app: FastifyInstance, provider: StripeCheckout, event: Stripe.Event, log: FastifyBaseLogger): Promise<{ received: true; result?: string }> {
  if (BILLING_EVENTS.has(event.type)) {
    const result = await recordSubscriptionEvent(app, event);
    if (result === 'unknown-subscription') log.warn({ event: event.id, type: event.type }, 'Stripe subscription event for a subscription this server did not open');
    return { received: true, result };
  }
  if (!PAID_EVENTS.has(event.type)) {
    await recordEvent(app, event);
    return { received: true };
  }
  const session = event.data.object as Stripe.Checkout.Session;
  // A completed checkout paid by bank debit is not paid yet: async_payment_succeeded follows.
  if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') {
    await recordEvent(app, event);
    return { received: true };
  }
  const [payment] = await app.db.select().from(payments).where(eq(payments.providerSessionId, session.id));
  const paymentId = payment?.id ?? session.metadata?.payment_id;
  if (!paymentId) {
    log.warn({ session: session.id }, 'Stripe event for a checkout session this server did not start');
    await recordEvent(app, event);
    return { received: true };
  }
  await rememberSubscription(app, paymentId, session);
  const result = await markPaid(app, paymentId, event);
  // A price with an introductory phase: the subscription becomes a two-phase schedule, once
  // (also on a later delivery of this event, if Stripe could not be reached the first time).
  try {
    await ensureIntroductorySchedule(app, provider, paymentId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.error({ err: error.cause ?? error, payment: paymentId }, error.message);
    // Stripe delivers the event again later; the payment is recorded, only the schedule is retried.
    throw new HttpError(503, PAYMENT_MESSAGES.scheduleUnavailable);
  }
  return { received: true, result };
}
