import fp from 'fastify-plugin';
import { createPaymentProvider } from '../payment/service';
import type { PaymentProvider } from '../payment/types';

declare module 'fastify' {
  interface FastifyInstance {
    /** Card payments: Stripe Checkout when configured, else the built-in checkout page. */
    payments: PaymentProvider;
  }
}

/** Payments: Stripe Checkout (`STRIPE_SECRET_KEY`), else (development only) the built-in checkout. */
export default fp<{ payments?: PaymentProvider }>(
  async (app, options) => {
    app.decorate('payments', options.payments ?? createPaymentProvider(app.config));
  },
  { name: 'payments', dependencies: ['config'], fastify: '5.x' },
);
