import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { registrationRequests } from './registration';

// Checkouts of a request's subscription and the payment provider's events already handled.

/**
 * A checkout of a request's subscription (spec 001 §2 item 8, §4 "Payment"): one row per "Vreau
 * {product}" press. `id` is ours (random, in the built-in checkout's URL); `providerSessionId` is
 * Stripe's Checkout Session id. Paid by the webhook or the built-in checkout, through one code path.
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    requestId: integer('request_id')
      .notNull()
      .references(() => registrationRequests.id, { onDelete: 'cascade' }),
    /** 'builtin' or 'stripe' */
    provider: text('provider').notNull(),
    providerSessionId: text('provider_session_id'),
    stripePriceId: text('stripe_price_id').notNull(),
    amountBani: integer('amount_bani').notNull(),
    currency: text('currency').notNull(),
    /** open, paid, cancelled */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Stripe's subscription (`sub_…`) the paid checkout opened: its invoices and cancellation find the dossier by it. */
    providerSubscriptionId: text('provider_subscription_id'),
    /** Stripe's Subscription Schedule (`sub_sched_…`) of a price with an introductory phase, once created. */
    providerScheduleId: text('provider_schedule_id'),
  },
  (t) => [
    index('payments_request_idx').on(t.requestId),
    uniqueIndex('payments_provider_session_unique').on(t.providerSessionId),
    index('payments_provider_subscription_idx').on(t.providerSubscriptionId),
  ],
);

/** Ids of payment-provider events already handled (Stripe `evt_…`): a duplicate delivery changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
