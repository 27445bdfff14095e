import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { currentStep, stepsInfo, type ResolvedFlow } from '../../src/core/flow';
import { pricePhases } from '../../src/core/billing';
import { partnerPrices, payments } from '../db/schema';
import { FieldValidationError, HttpError, notFound } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { staleStep, type PartnerRow, type RequestRow } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import { paymentWithRequest, requestById } from '../registration/store';
import { priceTerms } from './billing';
import { flowOf, markPaid, newPaymentId, returnUrls, type PaymentRow } from './service';
import { PaymentProviderError } from './types';

/**
 * The applicant's side of paying (spec 001 §2 item 8, §4 "Pricing" and "Payment"): the redirect to
 * the payment page, the simulated payment, and the built-in checkout page's calls
 * (server/routes/payment.ts). Stripe's webhook is webhook.ts; marking paid is service.ts.
 */

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

/**
 * Starts a checkout for the chosen price of the user's partner: where the browser goes to pay, or
 * why not (already paid, the provider unreachable: logged on `log`). Not at the paid step: 409.
 */
export async function startCheckout(app: FastifyInstance, user: UserRow, selectedStripeId: string, origin: string, log: FastifyBaseLogger) {
  const provider = app.payments;
  const flow = flowOf(app, user.registrationType);
  const { request: row, partner, resolved, serialize } = await loadRequest(app, user, flow);
  const price = await priceOf(app, partner, selectedStripeId);
  if (!price) throw new FieldValidationError({ selected_stripe_id: [PAYMENT_MESSAGES.unknownPrice] });
  if (row.paid) return { success: false, error_code: 'already_paid' satisfies RedirectErrorCode, redirect_url: null };
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
    return { success: true, error_code: null, redirect_url: session.redirectUrl };
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.error({ err: error.cause ?? error }, error.message);
    await app.db.update(payments).set({ status: 'failed' }).where(eq(payments.id, paymentId));
    return { success: false, error_code: 'payment_unavailable' satisfies RedirectErrorCode, redirect_url: null };
  }
}

/**
 * A payment without a card where payments are simulated anyway (no Stripe configured): the same
 * code path as a real payment; answers the request (paid). Not at the paid step: 409.
 */
export async function simulatePayment(app: FastifyInstance, user: UserRow, currentStepIdentifier: string) {
  if (app.payments.name !== 'builtin') throw notFound(PAYMENT_MESSAGES.simulateUnavailable);
  const flow = flowOf(app, user.registrationType);
  const { request: row, partner, resolved, serialize } = await loadRequest(app, user, flow);
  if (row.paid) return serialize();
  const current = stepsInfo(resolved, row.step).current.identifier;
  if (currentStepIdentifier !== current || !isPaymentStep(resolved, row)) throw staleStep(await serialize());
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
  return serialize(updated ?? row);
}

/** The built-in checkout page's data: amount, partner, what is bought. */
export async function checkoutPage(app: FastifyInstance, user: UserRow, id: string, origin: string) {
  const { payment, request: row } = await builtinPaymentOf(app, user, id);
  const { partner } = await loadRequest(app, user, flowOf(app, row.registrationType));
  const [price] = await app.db.select().from(partnerPrices).where(eq(partnerPrices.stripePriceId, payment.stripePriceId));
  return {
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
    ...returnUrls(origin, flowOf(app, row.registrationType), payment.id),
  };
}

/** "Plătește": marks the payment paid (the webhook's code path); where the browser goes. A cancelled or failed payment: 409. */
export async function payBuiltin(app: FastifyInstance, user: UserRow, id: string, origin: string): Promise<string> {
  const { payment, request: row } = await builtinPaymentOf(app, user, id);
  if (payment.status === 'cancelled' || payment.status === 'failed') throw new HttpError(409, PAYMENT_MESSAGES.checkoutCancelled);
  await markPaid(app, payment.id);
  return returnUrls(origin, flowOf(app, row.registrationType), payment.id).successUrl;
}

/** "Anulează": the payment is given up; the browser goes back to the confirmation page, which offers the pricing again. A paid one: 409. */
export async function cancelBuiltin(app: FastifyInstance, user: UserRow, id: string, origin: string): Promise<string> {
  const { payment, request: row } = await builtinPaymentOf(app, user, id);
  if (payment.status === 'paid') throw new HttpError(409, PAYMENT_MESSAGES.checkoutPaid);
  await app.db.update(payments).set({ status: 'cancelled' }).where(and(eq(payments.id, payment.id), eq(payments.status, 'open')));
  return returnUrls(origin, flowOf(app, row.registrationType), payment.id).cancelUrl;
}
