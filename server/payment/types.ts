/**
 * Card payment of a request's subscription (spec 001 §2 item 8, §4 "Payment" and "Pricing"): one
 * interface, two implementations — Stripe Checkout (`STRIPE_SECRET_KEY`) and the built-in checkout
 * page of this server (the default, for local use and tests).
 */
export interface CheckoutInput {
  /** Our payment id (payments.id). */
  paymentId: string;
  requestId: number;
  customerEmail: string;
  /** The partner price's payment-provider id and its billing interval (month, or null for one payment). */
  price: { stripePriceId: string; interval: string | null };
  /** Where the provider sends the browser after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
  /** Origin of this server as the browser knows it (browserOrigin): the built-in checkout page lives there. */
  origin: string;
}

export interface CheckoutSession {
  /** The page the browser opens to pay. */
  redirectUrl: string;
  /** The provider's id of the checkout (Stripe `cs_…`), null for the built-in checkout. */
  providerSessionId: string | null;
}

export interface PaymentProvider {
  readonly name: 'builtin' | 'stripe';
  startCheckout(input: CheckoutInput): Promise<CheckoutSession>;
  /**
   * Ends a subscription at the provider now (an erased account, issue 32: nobody may be billed for an
   * account that no longer exists). A subscription already ended is not an error. Throws
   * PaymentProviderError when the provider cannot be reached.
   */
  cancelSubscription(subscriptionId: string): Promise<void>;
}

/** The provider could not start a checkout (network, configuration); the browser is told with an error code. */
export class PaymentProviderError extends Error {
  constructor(message: string, readonly cause?: unknown) {
    super(message);
  }
}
