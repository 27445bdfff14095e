import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripeCall {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The form-encoded body, decoded (`line_items[0][price]` → value). */
  params: Record<string, string>;
}

/** The start of the subscription's current period in the fake's schedules (2026-11-25 10:00 UTC). */
export const FAKE_PERIOD_START = 1795600800;

/**
 * A local stand-in for Stripe's API on 127.0.0.1 (the SDK is pointed at it with STRIPE_API_URL):
 * `POST /v1/checkout/sessions` answers a session with an id and a checkout URL, like Stripe;
 * `POST /v1/subscription_schedules` (from_subscription) a schedule with the subscription's current
 * phase, and `POST /v1/subscription_schedules/:id` (the phases) the updated schedule.
 */
export class FakeStripe {
  readonly calls: FakeStripeCall[] = [];
  /** The next N calls answer 500 (an outage; the SDK retries). */
  failNext = 0;
  private server: http.Server | null = null;
  // Ids start at a random number: test files running at once (test:pg) share one database, where
  // checkout session ids are unique; each fake must not hand out another one's `cs_test_1`.
  private sessions = randomInt(1, 1_000_000) * 1000;
  private scheduleCount = randomInt(1, 1_000_000) * 1000;
  /** Subscriptions cancelled with `DELETE /v1/subscriptions/:id`. */
  readonly cancelled = new Set<string>();
  /** Stripe answers a repeated idempotency key with the first answer. */
  private readonly scheduleByKey = new Map<string, object>();

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const params = Object.fromEntries(new URLSearchParams(raw));
        this.calls.push({
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0],
          authorization: req.headers.authorization,
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
          params,
        });
        res.setHeader('content-type', 'application/json');
        if (this.failNext > 0) {
          this.failNext--;
          res.statusCode = 500;
          res.end(JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong on Stripe’s end.' } }));
          return;
        }
        if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
          const id = `cs_test_${++this.sessions}`;
          res.end(
            JSON.stringify({
              id,
              object: 'checkout.session',
              url: `https://checkout.stripe.com/c/pay/${id}`,
              client_reference_id: params.client_reference_id,
              metadata: { payment_id: params['metadata[payment_id]'], request_id: params['metadata[request_id]'] },
              payment_status: 'unpaid',
              status: 'open',
            }),
          );
          return;
        }
        if (req.method === 'POST' && req.url === '/v1/subscription_schedules') {
          // Created from a subscription: one phase, the subscription's current period (Stripe takes no phases here).
          const idempotent = this.scheduleByKey.get(req.headers['idempotency-key'] as string);
          const schedule = idempotent ?? {
            id: `sub_sched_test_${++this.scheduleCount}`,
            object: 'subscription_schedule',
            subscription: params.from_subscription,
            end_behavior: 'release',
            phases: [{ start_date: FAKE_PERIOD_START, end_date: FAKE_PERIOD_START + 30 * 86400, items: [{ price: 'price_from_subscription', quantity: 1 }] }],
          };
          if (!idempotent) this.scheduleByKey.set(req.headers['idempotency-key'] as string, schedule);
          res.end(JSON.stringify(schedule));
          return;
        }
        const cancel = /^\/v1\/subscriptions\/([\w-]+)$/.exec(req.url ?? '');
        if (req.method === 'DELETE' && cancel) {
          if (this.cancelled.has(cancel[1]) || cancel[1].startsWith('sub_gone')) {
            res.statusCode = 404;
            res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such subscription: '${cancel[1]}'` } }));
            return;
          }
          this.cancelled.add(cancel[1]);
          res.end(JSON.stringify({ id: cancel[1], object: 'subscription', status: 'canceled' }));
          return;
        }
        const update = /^\/v1\/subscription_schedules\/([\w-]+)$/.exec(req.url ?? '');
        if (req.method === 'POST' && update) {
          res.end(JSON.stringify({ id: update[1], object: 'subscription_schedule', end_behavior: params.end_behavior, phases: [] }));
          return;
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${req.url})` } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
