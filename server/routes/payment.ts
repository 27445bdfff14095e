import type { FastifyPluginAsync } from 'fastify';
import type Stripe from 'stripe';
import { arrayOf, bool, errorReplies, nullInt, nullStr, num, obj, replies, requestReplies, str } from '../lib/api-schemas';
import { HttpError, notFound } from '../lib/http-errors';
import { onlyFromLoopback } from '../lib/loopback';
import { browserOrigin } from '../lib/origin';
import type { UserRow } from '../lib/tokens';
import { PAYMENT_MESSAGES, cancelBuiltin, checkoutPage, payBuiltin, simulatePayment, startCheckout } from '../payment/checkout';
import { StripeCheckout } from '../payment/stripe';
import { handleStripeEvent } from '../payment/webhook';
import { stepBody } from '../registration/step-endpoints';

export { PAYMENT_MESSAGES } from '../payment/checkout';

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

const priceBody = {
  type: 'object',
  required: ['selected_stripe_id'],
  properties: { selected_stripe_id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

const paymentParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

/**
 * Payment of the subscription (spec 001 §2 item 8, §4 "Pricing" and "Payment", §7): the redirect
 * to the payment page, the simulated payment, Stripe's webhook and the built-in checkout's calls.
 * The work is in server/payment/ (checkout.ts, webhook.ts).
 */
export default (async (app) => {
  const provider = app.payments;

  /** Starts a checkout for the chosen price of the user's partner; the browser goes to `redirect_url`. */
  app.post<{ Body: { selected_stripe_id: string } }>('/stripe/redirect', { onRequest: app.authenticate, schema: { body: priceBody, response: replies(redirectAnswer, 'The payment page, or why not') } }, async (request) => ({
    message: '',
    payload: await startCheckout(app, request.user as UserRow, request.body.selected_stripe_id, browserOrigin(app, request), request.log),
  }));

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
        return reply.send(await handleStripeEvent(app, provider, event, request.log));
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
    { onRequest: [onlyFromLoopback, app.authenticate], schema: { body: stepBody, response: requestReplies } },
    async (request) => ({ message: '', payload: await simulatePayment(app, request.user as UserRow, request.body.current_step_identifier) }),
  );

  /** The built-in checkout page's data: amount, partner, what is bought. */
  app.get<{ Params: { id: string } }>('/checkout/:id', { onRequest: app.authenticate, schema: { params: paymentParams, response: replies(checkoutAnswer, 'The built-in checkout page') } }, async (request) => ({
    message: '',
    payload: await checkoutPage(app, request.user as UserRow, request.params.id, browserOrigin(app, request)),
  }));

  /** "Plătește": marks the payment paid (the webhook's code path) and answers where to go. */
  app.post<{ Params: { id: string } }>('/checkout/:id/pay', { onRequest: app.authenticate, schema: { params: paymentParams, response: leaveCheckout } }, async (request) => ({
    message: '',
    payload: { redirect_url: await payBuiltin(app, request.user as UserRow, request.params.id, browserOrigin(app, request)) },
  }));

  /** "Anulează": the payment is given up; the browser goes back to the confirmation page, which offers the pricing again. */
  app.post<{ Params: { id: string } }>('/checkout/:id/cancel', { onRequest: app.authenticate, schema: { params: paymentParams, response: leaveCheckout } }, async (request) => ({
    message: '',
    payload: { redirect_url: await cancelBuiltin(app, request.user as UserRow, request.params.id, browserOrigin(app, request)) },
  }));
}) satisfies FastifyPluginAsync;
