import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { lei, pricePhases, type PriceTerms } from '../../src/core/billing';
import { routePath } from '../../src/core/routes';
import { todayInRomania } from '../../src/core/timeline';
import { partnerPrices, paymentEvents, payments } from '../db/schema';
import { paymentReceiptMail } from '../mail/templates';
import { messages, type Language } from '../messages';
import { userLanguage } from '../lib/users';
import { addBillingTimelineItem } from '../registration/timeline';
import type { Db } from '../db';
import { requestOwner, type Tx } from '../registration/store';
import type { StripeCheckout } from './stripe';

/**
 * What the dossier keeps of its billing (issue 17 items 4 and 11): the payment received (a status
 * item and the receipt mail, once, in the transaction that marks the payment paid), the Stripe
 * Subscription Schedule of a price with an introductory phase, and the subscription's failed
 * invoices and its end (status items, once per provider event).
 */

type PaymentRow = typeof payments.$inferSelect;
type PriceRow = typeof partnerPrices.$inferSelect;

const amountFormat = new Intl.NumberFormat('ro-RO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "130,00 lei" (RON), "12,00 EUR" otherwise. */
export function formatMoney(amount: number, currency: string): string {
  return `${amountFormat.format(amount)} ${currency.toUpperCase() === 'RON' ? 'lei' : currency.toUpperCase()}`;
}

type PriceData = Pick<PriceRow, 'amountBani' | 'currency' | 'interval' | 'introMonths' | 'thenAmountBani'>;

/** A stored price as the API and src/core/billing.ts speak of it: lei, and its introductory phase or nulls. */
export function priceTerms(price: PriceData): PriceTerms {
  return {
    amount: lei(price.amountBani),
    currency: price.currency,
    interval: price.interval,
    intro_months: price.introMonths,
    then_amount: price.thenAmountBani === null ? null : lei(price.thenAmountBani),
  };
}

/** "130 lei/lună în primele 3 luni, apoi 72 lei/lună" from the price's data (in `language`); null for a single amount. */
export function phasesText(price: PriceData, language: Language = 'ro'): string | null {
  const phases = pricePhases(priceTerms(price));
  if (phases.length < 2) return null;
  const unit = price.currency.toUpperCase() === 'RON' ? 'lei' : price.currency.toUpperCase();
  const [intro, then] = phases;
  const short = new Intl.NumberFormat(messages(language).locale, { minimumFractionDigits: 0, maximumFractionDigits: 2 });
  return messages(language).mail.receipt.phases({
    intro: short.format(intro.amount),
    then: short.format(then.amount),
    unit,
    interval: price.interval === 'year' ? 'year' : 'month',
    n: intro.intervals ?? 1,
  });
}

/** The page a receipt links to: the flow's page after payment (the new PFA's status page), else the flow. */
function dossierLink(app: FastifyInstance, registrationType: number): string {
  const flow = app.flows.byType[registrationType as 1 | 2];
  const path = (flow.paidRoute ? routePath(flow.paidRoute) : null) ?? flow.basePath;
  return `${app.config.publicUrl}${path}`;
}

/**
 * A payment just became paid (in `tx`, the transaction that marked it): the dossier's
 * "Plata a fost primită" item, with amount and the price's phases, and the receipt mail in the queue.
 * Called once per payment: only the update that moved the payment to paid gets here.
 */
export async function recordPaymentReceived(app: FastifyInstance, tx: Tx, payment: PaymentRow, paidAt: Date): Promise<void> {
  const owner = await requestOwner(tx, payment.requestId);
  const [price] = await tx.select().from(partnerPrices).where(eq(partnerPrices.stripePriceId, payment.stripePriceId));
  const amount = lei(payment.amountBani);
  await addBillingTimelineItem(tx, payment.requestId, {
    type: 'payment_received',
    date: todayInRomania(paidAt),
    data: {
      amount,
      currency: payment.currency,
      intro_months: price?.introMonths ?? null,
      then_amount: price ? priceTerms(price).then_amount : null,
      payment_id: payment.id,
    },
  });
  const product = app.config.productName;
  // The applicant's language (chosen in the app, user_meta): the receipt is sent long after any request of theirs.
  const language = await userLanguage(tx, owner.userId);
  const dayFormat = new Intl.DateTimeFormat(messages(language).locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Bucharest' });
  await app.mailer.queue(
    tx,
    paymentReceiptMail(
      owner.email,
      product,
      {
        amount: formatMoney(amount, payment.currency),
        date: dayFormat.format(paidAt),
        item: messages(language).mail.receipt.subscription(product, owner.partner),
        terms: price ? phasesText(price, language) : null,
        reference: payment.id,
        link: dossierLink(app, owner.registrationType),
      },
      language,
    ),
  );
}

/** Stripe's id of an expandable field: the string itself, or the expanded object's id. */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Keeps the subscription a paid checkout opened on its payment (the first one told wins). */
export async function rememberSubscription(app: FastifyInstance, paymentId: string, session: Stripe.Checkout.Session): Promise<void> {
  const subscriptionId = idOf(session.subscription);
  if (!subscriptionId) return;
  await app.db
    .update(payments)
    .set({ providerSubscriptionId: subscriptionId })
    .where(and(eq(payments.id, paymentId), isNull(payments.providerSubscriptionId)));
}

export type ScheduleResult = 'scheduled' | 'already-scheduled' | 'not-needed';

/**
 * The Subscription Schedule of a paid payment whose price has an introductory phase, made once:
 * the payment keeps the schedule's id, so a replayed event (or a later one) finds it and calls
 * Stripe no more; a delivery after a failed attempt tries again. Throws PaymentProviderError.
 */
export async function ensureIntroductorySchedule(app: FastifyInstance, stripe: StripeCheckout, paymentId: string): Promise<ScheduleResult> {
  const [found] = await app.db
    .select({ payment: payments, price: partnerPrices })
    .from(payments)
    .innerJoin(partnerPrices, eq(partnerPrices.stripePriceId, payments.stripePriceId))
    .where(eq(payments.id, paymentId));
  if (!found) return 'not-needed';
  const { payment, price } = found;
  if (payment.providerScheduleId) return 'already-scheduled';
  if (payment.status !== 'paid' || !payment.providerSubscriptionId || !price.introMonths || !price.thenStripePriceId) return 'not-needed';
  const scheduleId = await stripe.scheduleIntroductoryPhases({
    subscriptionId: payment.providerSubscriptionId,
    introPriceId: price.stripePriceId,
    introIntervals: price.introMonths,
    thenPriceId: price.thenStripePriceId,
    interval: price.interval === 'year' ? 'year' : 'month',
  });
  await app.db.update(payments).set({ providerScheduleId: scheduleId }).where(and(eq(payments.id, paymentId), isNull(payments.providerScheduleId)));
  return 'scheduled';
}

/** The subscription an invoice bills: `parent.subscription_details` (current API), or the older top-level field. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const details = invoice.parent?.subscription_details;
  return idOf(details?.subscription as string | { id: string } | null | undefined) ?? idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

const dayOf = (seconds: number | null | undefined) => (typeof seconds === 'number' && Number.isFinite(seconds) ? todayInRomania(new Date(seconds * 1000)) : null);

export type BillingEventResult = 'recorded' | 'duplicate-event' | 'unknown-subscription';

/**
 * `invoice.payment_failed` and `customer.subscription.deleted`: a status item on the dossier whose
 * payment opened the subscription, written with the event's id in one transaction (a replay adds
 * nothing). A subscription this server did not open is acknowledged and recorded as seen.
 */
export async function recordSubscriptionEvent(app: FastifyInstance, event: Stripe.Event): Promise<BillingEventResult> {
  const object = event.data.object as Stripe.Invoice | Stripe.Subscription;
  const subscriptionId = event.type === 'invoice.payment_failed' ? subscriptionOfInvoice(object as Stripe.Invoice) : (object as Stripe.Subscription).id;
  return app.db.transaction(async (tx) => {
    const seen = await tx.insert(paymentEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing().returning();
    if (seen.length === 0) return 'duplicate-event';
    if (!subscriptionId) return 'unknown-subscription';
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.providerSubscriptionId, subscriptionId))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    if (!payment) return 'unknown-subscription';
    if (event.type === 'invoice.payment_failed') {
      const invoice = object as Stripe.Invoice;
      await addBillingTimelineItem(tx, payment.requestId, {
        type: 'payment_failed',
        date: dayOf(event.created) ?? todayInRomania(),
        data: {
          amount: typeof invoice.amount_due === 'number' ? lei(invoice.amount_due) : null,
          currency: typeof invoice.currency === 'string' ? invoice.currency.toUpperCase() : null,
          next_attempt_date: dayOf(invoice.next_payment_attempt),
          invoice_id: invoice.id ?? null,
          subscription_id: subscriptionId,
        },
      });
    } else {
      const subscription = object as Stripe.Subscription;
      await addBillingTimelineItem(tx, payment.requestId, {
        type: 'subscription_cancelled',
        date: dayOf(subscription.ended_at) ?? dayOf(event.created) ?? todayInRomania(),
        data: { subscription_id: subscriptionId },
      });
    }
    return 'recorded';
  });
}

/**
 * A dossier's checkouts for staff (the operator console and `npm run ops -- show`), oldest first:
 * status, amount in lei, and Stripe's subscription and schedule when there are some.
 */
export async function dossierPayments(db: Db, requestId: number) {
  const rows = await db.select().from(payments).where(eq(payments.requestId, requestId)).orderBy(asc(payments.createdAt));
  return rows.map((p) => ({
    id: p.id,
    provider: p.provider,
    status: p.status,
    amount: p.amountBani / 100,
    currency: p.currency,
    created_at: p.createdAt.toISOString(),
    paid_at: p.paidAt?.toISOString() ?? null,
    subscription_id: p.providerSubscriptionId,
    schedule_id: p.providerScheduleId,
  }));
}
