import Stripe from 'stripe';
import { PaymentProviderError, type CheckoutInput, type CheckoutSession, type PaymentProvider } from './types';

/** Events whose session is paid: a card payment completes at once, a bank debit later (async). */
export const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/** Events of the subscription recorded on the dossier (issue 17 item 11): a failed invoice, the subscription ended. */
export const BILLING_EVENTS = new Set(['invoice.payment_failed', 'customer.subscription.deleted']);

/** The two phases of a price with an introductory phase (130 lei × 3 months, then 72 lei). */
export interface IntroductorySchedule {
  subscriptionId: string;
  introPriceId: string;
  introIntervals: number;
  thenPriceId: string;
  /** month or year */
  interval: 'month' | 'year';
}

/** Seconds a webhook's signed timestamp may be old: an older (replayed) event is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeCheckoutOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (stripe-mock, a fake server in tests): http://127.0.0.1:12111 */
  apiUrl?: string | null;
}

/** Stripe Checkout through the official `stripe` SDK; the webhook's signature is checked on the raw body. */
export class StripeCheckout implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeCheckoutOptions) {
    const api = options.apiUrl ? new URL(options.apiUrl) : null;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
    });
  }

  async startCheckout(input: CheckoutInput): Promise<CheckoutSession> {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: input.price.interval ? 'subscription' : 'payment',
          line_items: [{ price: input.price.stripePriceId, quantity: 1 }],
          client_reference_id: String(input.requestId),
          customer_email: input.customerEmail,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          locale: 'ro',
          metadata: { payment_id: input.paymentId, request_id: String(input.requestId) },
        },
        // A retried create (network error) must not open a second checkout.
        { idempotencyKey: `checkout-${input.paymentId}` },
      );
      if (!session.url) throw new PaymentProviderError('Stripe returned a checkout session without a URL');
      return { redirectUrl: session.url, providerSessionId: session.id };
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      throw new PaymentProviderError('Stripe could not create the checkout session', error);
    }
  }

  /**
   * Turns the subscription a checkout opened into a Subscription Schedule with two phases: the
   * introductory price for `introIntervals` intervals from the subscription's start, then the later
   * price, after which the schedule releases the subscription (it goes on at the later price). A
   * schedule is created from the subscription (Stripe takes no phases then) and its phases set by
   * an update; both calls carry idempotency keys of the subscription, so a retry never makes a second.
   */
  async scheduleIntroductoryPhases(input: IntroductorySchedule): Promise<string> {
    try {
      const schedule = await this.stripe.subscriptionSchedules.create(
        { from_subscription: input.subscriptionId },
        { idempotencyKey: `schedule-${input.subscriptionId}` },
      );
      const start = schedule.phases[0]?.start_date ?? schedule.current_phase?.start_date;
      await this.stripe.subscriptionSchedules.update(
        schedule.id,
        {
          end_behavior: 'release',
          proration_behavior: 'none',
          phases: [
            {
              items: [{ price: input.introPriceId, quantity: 1 }],
              ...(start ? { start_date: start } : {}),
              duration: { interval: input.interval, interval_count: input.introIntervals },
            },
            { items: [{ price: input.thenPriceId, quantity: 1 }], duration: { interval: input.interval, interval_count: 1 } },
          ],
        },
        { idempotencyKey: `schedule-phases-${input.subscriptionId}` },
      );
      return schedule.id;
    } catch (error) {
      throw new PaymentProviderError('Stripe could not schedule the introductory phase of the subscription', error);
    }
  }

  /**
   * Cancels the subscription now (`DELETE /v1/subscriptions/:id`; a subscription under a schedule ends
   * with it). Stripe answers 404 `resource_missing` for one that no longer exists: nothing to end.
   */
  async cancelSubscription(subscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-${subscriptionId}` });
    } catch (error) {
      const stripeError = error as { code?: string; statusCode?: number };
      if (stripeError.statusCode === 404 || stripeError.code === 'resource_missing') return;
      throw new PaymentProviderError('Stripe could not cancel the subscription', error);
    }
  }

  /** The event of a webhook delivery; throws when the signature is missing, wrong or too old. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new Error('No Stripe-Signature header');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  }
}
