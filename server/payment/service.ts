import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { resolveFlow, stepsInfo, type Flow } from '../../src/core/flow';
import type { AppConfig } from '../config';
import { partners, paymentEvents, payments, users } from '../db/schema';
import { flowContext } from '../registration/model';
import { markRequestPaid } from '../registration/store';
import { recordPaymentReceived } from './billing';
import { BuiltinCheckout } from './builtin';
import { StripeCheckout } from './stripe';
import type { PaymentProvider } from './types';

export type PaymentRow = typeof payments.$inferSelect;

/** Stripe Checkout when `STRIPE_SECRET_KEY` is set, else the built-in checkout page. */
export function createPaymentProvider(config: AppConfig): PaymentProvider {
  if (!config.stripeSecretKey) return new BuiltinCheckout();
  if (!config.stripeWebhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY (payments are confirmed by the webhook).');
  return new StripeCheckout({ secretKey: config.stripeSecretKey, webhookSecret: config.stripeWebhookSecret, apiUrl: config.stripeApiUrl });
}

export function newPaymentId(): string {
  return `pay_${randomBytes(18).toString('base64url')}`;
}

/** The flow file of a request's registration type. */
export function flowOf(app: FastifyInstance, registrationType: number): Flow {
  return app.flows.byType[registrationType as 1 | 2];
}

/**
 * Where the provider sends the browser back: the flow's payment confirmation page (`…/plata`) at
 * `origin` (browserOrigin: PUBLIC_URL, or in development the origin the browser used).
 */
export function returnUrls(origin: string, flow: Flow, paymentId: string): { successUrl: string; cancelUrl: string } {
  const page = `${origin}${flow.basePath}/plata`;
  return { successUrl: `${page}?plata=${encodeURIComponent(paymentId)}`, cancelUrl: `${page}?anulata=${encodeURIComponent(paymentId)}` };
}

export type MarkPaidResult = 'paid' | 'already-paid' | 'duplicate-event' | 'unknown-payment';

/**
 * The one code path that marks a payment and its request paid: Stripe's webhook, the built-in
 * checkout's "Plătește" and the simulated payment all come here. In one transaction: the provider's
 * event id is recorded (a second delivery changes nothing), the payment becomes paid, and its
 * request becomes paid and moves past the payment step (the flow resolved as paid: the existing
 * PFA's pricing step drops out, so the request stands at the next one); the dossier gets its
 * "payment received" item and the receipt mail is queued.
 */
export async function markPaid(app: FastifyInstance, paymentId: string, event?: { id: string; type: string }): Promise<MarkPaidResult> {
  const result = await markPaidInTransaction(app, paymentId, event);
  // The receipt was queued with the payment: send it now rather than at the queue's next look.
  if (result === 'paid' || result === 'already-paid') app.mailer.wake();
  return result;
}

function markPaidInTransaction(app: FastifyInstance, paymentId: string, event?: { id: string; type: string }): Promise<MarkPaidResult> {
  return app.db.transaction(async (tx) => {
    if (event) {
      const recorded = await tx.insert(paymentEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing().returning();
      if (recorded.length === 0) return 'duplicate-event';
    }
    const now = new Date();
    const [payment] = await tx
      .update(payments)
      .set({ status: 'paid', paidAt: now })
      .where(and(eq(payments.id, paymentId), ne(payments.status, 'paid')))
      .returning();
    if (!payment) {
      const [known] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, paymentId));
      return known ? 'already-paid' : 'unknown-payment';
    }
    // Only the update that made the payment paid gets here: the status item and the receipt, once.
    await recordPaymentReceived(app, tx, payment, now);
    // The store re-applies this on the newest version of the request (the applicant may be moving it meanwhile).
    return markRequestPaid(tx, payment.requestId, now, async (paid) => {
      const [partner] = await tx
        .select({ partner: partners })
        .from(users)
        .innerJoin(partners, eq(partners.id, users.partnerId))
        .where(eq(users.id, paid.userId));
      const resolved = resolveFlow(flowOf(app, paid.registrationType), flowContext(paid, partner.partner));
      return stepsInfo(resolved, paid.step).current.identifier;
    });
  });
}

/** Records a provider event that needs no action; false when it was already seen. */
export async function recordEvent(app: FastifyInstance, event: { id: string; type: string }): Promise<boolean> {
  const recorded = await app.db.insert(paymentEvents).values({ eventId: event.id, type: event.type }).onConflictDoNothing().returning();
  return recorded.length > 0;
}
