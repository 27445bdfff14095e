import type { CheckoutInput, CheckoutSession, PaymentProvider } from './types';

/**
 * The built-in checkout: the browser goes to this server's own page (`/checkout/:paymentId`), which
 * shows the amount and the partner with "Plătește" and "Anulează". Paying there marks the request
 * paid through the same code path as Stripe's webhook. No card is asked for: it stands in for the
 * provider where none is configured (local use, tests).
 */
export class BuiltinCheckout implements PaymentProvider {
  readonly name = 'builtin' as const;

  async startCheckout(input: CheckoutInput): Promise<CheckoutSession> {
    return { redirectUrl: `${input.origin}/checkout/${encodeURIComponent(input.paymentId)}`, providerSessionId: null };
  }

  /** Nothing recurs here: the built-in checkout takes one payment and bills nothing later. */
  async cancelSubscription(): Promise<void> {}
}
