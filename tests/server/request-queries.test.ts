import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { files, requestDocuments, timelineItems } from '../../server/db/schema';
import { auth, countedQueries, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';
import { sessionWithUploads } from './identity-helpers';

/**
 * Issue 14: reading a request is a bounded number of queries. The database client is wrapped for
 * the duration of one call and every query it runs is counted: the count must not grow with the
 * request's documents and timeline items.
 */

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

/** The queries the app runs while `run` runs. */
const countQueries = async (run: () => Promise<unknown>) => (await countedQueries(app, run))[1];

type Query = (...args: unknown[]) => unknown;

const open = (user: RegisteredUser) => app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });

/** An applicant at the documents step with `n` diplomas, `n` timeline items, identity photos and a signature. */
async function applicantWith(n: number): Promise<{ user: RegisteredUser; requestId: number }> {
  const user = await registerUser(app, { type: 2 });
  const requestId = (await open(user)).json().payload.id as number;
  await sessionWithUploads(app, user.token);
  const made = await app.db
    .insert(files)
    .values(Array.from({ length: n + 1 }, (_, i) => ({ userId: user.user.id, storageKey: `queries-${requestId}-${i}`, originalName: `diploma-${i}.pdf`, contentType: 'application/pdf', size: 10 })))
    .returning({ id: files.id });
  const [signature, ...diplomas] = made;
  await app.db.insert(requestDocuments).values(diplomas.map((f) => ({ requestId, fileId: f.id, kind: 'diploma' as const })));
  await app.db
    .insert(timelineItems)
    .values(Array.from({ length: n }, (_, i) => ({ requestId, type: 'rejected', date: `2026-11-${String(10 + i).padStart(2, '0')}`, data: {} })));
  await placeAtStep(app, user, 'requesting-company-step-3', { signature_file_id: signature.id });
  return { user, requestId };
}

describe('reading a request: a bounded number of queries', () => {
  it('GET /api/registration/open runs as many queries with 10 documents and timeline items as with 1', async () => {
    const one = await applicantWith(1);
    const ten = await applicantWith(10);

    let oneBody: Record<string, unknown> = {};
    let tenBody: Record<string, unknown> = {};
    const withOne = await countQueries(async () => (oneBody = (await open(one.user)).json().payload));
    const withTen = await countQueries(async () => (tenBody = (await open(ten.user)).json().payload));

    // The answer really carries them all.
    const media = (body: Record<string, unknown>) => body.media as Record<string, unknown[]>;
    expect(media(oneBody).diploma_documents).toHaveLength(1);
    expect(media(tenBody).diploma_documents).toHaveLength(10);
    expect(tenBody.status_timeline).toHaveLength(10);
    expect(media(tenBody).veriff_document_front).toMatchObject({ url: expect.stringMatching(/^\/api\/files\/\d+$/) });
    expect(media(tenBody).signature_document).toMatchObject({ id: expect.any(Number) });

    expect(withTen).toBe(withOne);
    // The session check, the request with its partner and everything the answer carries: one query.
    expect(withOne).toBe(1);
  });

  it('an open read again while nothing changed is answered from the read cache: no query, the same answer', async () => {
    const { user } = await applicantWith(10);
    // PostgreSQL: the cache keeps and answers once this process's writes (the fixture's) are confirmed by their notifications.
    const changes = app.database.changes;
    const settled = async () => {
      for (let i = 0; i < 200 && !(changes.connected && changes.settled()); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await open(user);
    await settled();
    const first = await open(user);
    await settled();
    let again = first;
    const cached = await countQueries(async () => (again = await open(user)));
    expect(again.body).toBe(first.body);
    expect(cached).toBe(0);
  });

  it('a step submit runs as many queries with 10 documents and timeline items as with 1', async () => {
    const one = await applicantWith(1);
    const ten = await applicantWith(10);
    const back = (user: RegisteredUser) =>
      app.inject({ method: 'POST', url: '/api/registration/steps/previous', payload: { current_step_identifier: 'requesting-company-step-3' }, headers: auth(user.token) });

    const status = [0, 0];
    const withOne = await countQueries(async () => (status[0] = (await back(one.user)).statusCode));
    const withTen = await countQueries(async () => (status[1] = (await back(ten.user)).statusCode));
    expect(status).toEqual([200, 200]);
    expect((await open(ten.user)).json().payload.step).toBe('requesting-company-step-2');
    expect(withTen).toBe(withOne);
    // The session with the request and its partner, the move that returns everything the answer carries.
    expect(withOne).toBe(2);
  });

  it('a step submit without a rule is two queries: the session with the request, one version-checked write that returns the answer', async () => {
    const counts: number[] = [];
    const answers: Record<string, unknown>[] = [];
    for (const n of [1, 10]) {
      const { user } = await applicantWith(n);
      await placeAtStep(app, user, 'requesting-company-step-8');
      counts.push(
        await countQueries(async () => {
          const res = await app.inject({
            method: 'POST',
            url: '/api/registration/collect/card',
            payload: { current_step_identifier: 'requesting-company-step-8', ghiseu_card_requested: 1 },
            headers: auth(user.token),
          });
          expect(res.statusCode, res.body).toBe(200);
          answers.push(res.json().payload);
        }),
      );
    }
    expect(counts).toEqual([2, 2]);
    // The answer is the moved request with everything it carries, read by the write itself.
    const ten = answers[1] as { step: string; form_data: Record<string, unknown>; status_timeline: unknown[]; media: Record<string, unknown> };
    expect(ten.step).toBe('requesting-company-step-9');
    expect(ten.form_data.ghiseu_card_requested).toBe(1);
    expect(ten.status_timeline).toHaveLength(10);
    expect(ten.media.diploma_documents).toHaveLength(10);
    expect(ten.media.signature_document).toMatchObject({ id: expect.any(Number), url: expect.stringMatching(/^\/api\/files\/\d+$/) });
    expect(ten.media.veriff_document_front).toMatchObject({ url: expect.stringMatching(/^\/api\/files\/\d+$/) });
    expect((ten as unknown as { partner: { prices: unknown[] } }).partner.prices.length).toBeGreaterThan(0);
  });

  it('the pricing step submit is two queries: its rule checks the price against the prices read with the request, and the answer comes from the write', async () => {
    const { user } = await applicantWith(1);
    await placeAtStep(app, user, 'requesting-company-step-9');
    const prices = (await open(user)).json().payload.partner.prices as { stripe_id: string }[];
    let status = 0;
    let answer: Record<string, unknown> = {};
    const count = await countQueries(async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/registration/collect/partner-price',
        payload: { current_step_identifier: 'requesting-company-step-9', selected_stripe_id: prices[0].stripe_id },
        headers: auth(user.token),
      });
      status = res.statusCode;
      answer = res.json().payload;
    });
    expect(status).toBe(200);
    expect(answer).toMatchObject({ step: 'requesting-company-step-9', form_data: { selected_stripe_id: prices[0].stripe_id } });
    expect(count).toBe(2);
  });

  it('a submit that lost the race to another write answers 409 with the request as it now stands, and writes nothing', async () => {
    const { user } = await applicantWith(1);
    await placeAtStep(app, user, 'requesting-company-step-8');
    const { registrationRequests } = await import('../../server/db/schema');
    const { eq, sql } = await import('drizzle-orm');
    const before = (await open(user)).json().payload as { id: number };
    // Another write lands between the submit's read and its write (a second tab): the version moves on.
    const client = (app.db as unknown as { $client: { query: Query } }).$client;
    const original = client.query;
    let reads = 0;
    client.query = function (this: unknown, ...args: unknown[]) {
      const text = String((args[0] as { text?: string })?.text ?? args[0]);
      if (/^update "registration_requests"/i.test(text) && reads++ === 0) {
        client.query = original;
        return Promise.resolve(app.db.update(registrationRequests).set({ version: sql`${registrationRequests.version} + 1` }).where(eq(registrationRequests.id, before.id))).then(() =>
          original.apply(this, args),
        );
      }
      return original.apply(this, args);
    };
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/registration/collect/card',
        payload: { current_step_identifier: 'requesting-company-step-8', ghiseu_card_requested: 1 },
        headers: auth(user.token),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ message: 'Acest pas a fost deja trimis. Te ducem la pasul la care ai rămas.', payload: { step: 'requesting-company-step-8' } });
    } finally {
      client.query = original;
    }
    const after = (await open(user)).json().payload as { step: string; form_data: Record<string, unknown> };
    expect(after.step).toBe('requesting-company-step-8');
    expect(after.form_data.ghiseu_card_requested ?? null).toBeNull();
  });

  it('a signature id that is not a file id in form_data reads as no signature, never as an error', async () => {
    for (const signature_file_id of ['12', 'abc', 1.5, -3, 0, 1e12, null, { id: 1 }, [1]]) {
      const user = await registerUser(app, { type: 2 });
      await placeAtStep(app, user, 'requesting-company-step-5', { signature_file_id });
      const res = await open(user);
      expect(res.statusCode, JSON.stringify(signature_file_id)).toBe(200);
      expect(res.json().payload).toMatchObject({ signature_file_id: null, media: { signature_document: null } });
    }
  });
});
