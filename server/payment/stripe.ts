import Stripe from 'stripe';
import { PaymentProviderError, type CheckoutInput, type CheckoutSession, type PaymentProvider } from './types';

/** Events whose session is paid: a card payment completes at once, a bank debit later (async). */
export const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

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

  /** The event of a webhook delivery; throws when the signature is missing, wrong or too old. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new Error('No Stripe-Signature header');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  }
}
