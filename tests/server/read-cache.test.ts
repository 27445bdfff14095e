import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, and } from 'drizzle-orm';
import { partners, registrationRequests, timelineItems, tokens } from '../../server/db/schema';
import { hashToken, revokeAllTokens } from '../../server/lib/tokens';
import { markPaid } from '../../server/payment/service';
import { ReadCache, READ_CACHE_TTL_MS, readCacheKey, sessionLive, touchDue } from '../../server/registration/read-cache';
import type { Change, ChangeFeed } from '../../server/db/changes';
import { auth, countedQueries, databaseUrl, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';
import { sessionWithUploads } from './identity-helpers';

/**
 * Issue 14: `GET …/open` from the in-process read cache (server/registration/read-cache.ts) when
 * nothing changed, and never stale in a way the applicant or anyone else can see: what a user writes
 * shows at once; what others write (operators, the payment confirmation, SQL) shows once the
 * database's notification arrives (at once on PGlite; on PostgreSQL at once for this process's writes,
 * after delivery for another process's, which the tests poll for the way a browser would).
 */

const OPS_TOKEN = 'ops-token-read-cache-0123456789';
const IDLE_MINUTES = 30;
let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ opsToken: OPS_TOKEN, accessTokenIdleMinutes: IDLE_MINUTES });
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

/** `run`'s answer and the number of queries it took. */
const counted = <T>(run: () => Promise<T>) => countedQueries(app, run);

const openUrl = (user: RegisteredUser) => (user.user.registration_type === 1 ? '/api/registration/existing/open' : '/api/registration/open');
const open = (user: RegisteredUser, query = '') => app.inject({ method: 'GET', url: openUrl(user) + query, headers: auth(user.token) });
const payloadOf = async (user: RegisteredUser) => {
  const res = await open(user);
  expect(res.statusCode).toBe(200);
  return res.json().payload;
};

/** Polls `open` the way the browser would (bounded: 100 × 20 ms) until `check` holds. */
async function eventually(user: RegisteredUser, check: (payload: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  let last: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++) {
    last = await payloadOf(user);
    if (check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never seen: ${JSON.stringify(last).slice(0, 300)}`);
}

/**
 * Until the cache may answer: listening, and (PostgreSQL) this process's writes confirmed by their
 * notifications (asked for by the first read that found them unconfirmed). PGlite: at once.
 */
async function settled() {
  const changes = app.database.changes;
  for (let i = 0; i < 200 && !(changes.connected && changes.settled()); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A read cached for the user: the second open runs no query (the first may create the request). */
async function cached(user: RegisteredUser) {
  await payloadOf(user);
  await settled();
  await payloadOf(user);
  await settled();
  const [res, queries] = await counted(() => open(user));
  expect(queries).toBe(0);
  return res.json().payload;
}

describe('GET …/open from the read cache', () => {
  it('answers twice alike, the second time from memory (no query), in both flows', async () => {
    for (const type of [2, 1] as const) {
      const user = await registerUser(app, { type });
      // The first open creates the request (a write: its notification drops what that read would keep).
      expect((await open(user)).statusCode).toBe(200);
      await settled();
      const [first, firstQueries] = await counted(() => open(user));
      expect(firstQueries).toBeGreaterThan(0);
      await settled();
      const [second, secondQueries] = await counted(() => open(user));
      expect(secondQueries).toBe(0);
      expect(second.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.headers['cache-control']).toBe('no-store');
      expect(second.headers['x-content-type-options']).toBe('nosniff');
      // The query flags of the open route do not change the answer.
      const [flagged, flaggedQueries] = await counted(() => open(user, '?timestamp=123&no_next_step=1'));
      expect(flaggedQueries).toBe(0);
      expect(flagged.body).toBe(first.body);
    }
  });

  it('another token never gets the first one’s answer; 401, 403 and 422 are as before', async () => {
    const a = await registerUser(app, { type: 2 });
    const b = await registerUser(app, { type: 2 });
    const aId = (await cached(a)).id;
    const bPayload = await payloadOf(b);
    expect(bPayload.id).not.toBe(aId);
    expect((await cached(b)).id).toBe(bPayload.id);
    expect((await app.inject({ method: 'GET', url: '/api/registration/open' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(`${a.token}x`) })).statusCode).toBe(401);
    // The other flow's route: 403, cached answer or not.
    expect((await app.inject({ method: 'GET', url: '/api/registration/existing/open', headers: auth(a.token) })).statusCode).toBe(403);
    expect((await open(a, '?timestamp=soon')).statusCode).toBe(422);
  });

  it('shows the user’s own writes at once, every time: step submits, going back, uploads', async () => {
    const user = await registerUser(app, { type: 2 });
    for (let i = 0; i < 10; i++) {
      expect((await cached(user)).step).toBe('requesting-company-step-0');
      const submitted = await app.inject({ method: 'POST', url: '/api/registration/open', headers: auth(user.token), payload: { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] } });
      expect(submitted.statusCode).toBe(200);
      expect((await payloadOf(user)).step).toBe('requesting-company-step-1');
      expect((await cached(user)).step).toBe('requesting-company-step-1');
      const back = await app.inject({ method: 'POST', url: '/api/registration/steps/previous', headers: auth(user.token), payload: { current_step_identifier: 'requesting-company-step-1' } });
      expect(back.statusCode).toBe(200);
      expect((await payloadOf(user)).step).toBe('requesting-company-step-0');
    }
    expect(((await cached(user)).media as Record<string, unknown>).veriff_document_front).toBeNull();
    await sessionWithUploads(app, user.token);
    expect(((await payloadOf(user)).media as Record<string, unknown>).veriff_document_front).toMatchObject({ url: expect.stringMatching(/^\/api\/files\/\d+$/) });
  });

  it('shows what others write: an operator’s timeline item, the payment confirmation, SQL, a partner’s new text', async () => {
    const user = await registerUser(app, { type: 2 });
    const requestId = (await cached(user)).id as number;
    const item = await app.inject({
      method: 'POST',
      url: `/api/ops/dossiers/${requestId}/timeline`,
      headers: { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' },
      payload: { type: 'delayed', date: '2026-11-20' },
    });
    expect(item.statusCode).toBe(201);
    await eventually(user, (p) => (p.status_timeline as unknown[]).length === 1);

    // The payment confirmation (the webhook's markPaid), for a checkout the user started.
    await placeAtStep(app, user, 'requesting-company-step-9');
    const redirect = await app.inject({ method: 'POST', url: '/api/stripe/redirect', headers: auth(user.token), payload: { selected_stripe_id: 'price_ghiseu_standard_monthly' } });
    const paymentId = (redirect.json().payload.redirect_url as string).split('/').pop()!;
    expect((await cached(user)).paid).toBe(false);
    expect(await markPaid(app, paymentId, { id: `evt_read_cache_${paymentId}`, type: 'checkout.session.completed' })).toBe('paid');
    await eventually(user, (p) => p.paid === true);

    // SQL from this process (a test fixture, a script sharing the pool).
    await cached(user);
    const where = and(eq(registrationRequests.userId, user.user.id), eq(registrationRequests.registrationType, 2));
    await app.db.update(registrationRequests).set({ profile: { first_name: 'Ana' } }).where(where);
    expect(((await payloadOf(user)).profile as Record<string, unknown>).first_name).toBe('Ana');

    // Partners belong to every answer: a change drops them all.
    const [partner] = await app.db.select().from(partners).where(eq(partners.slug, 'neafiliat'));
    await cached(user);
    try {
      await app.db.update(partners).set({ footnote: 'Notă de test' }).where(eq(partners.id, partner.id));
      await eventually(user, (p) => (p.partner as Record<string, unknown>).footnote === 'Notă de test');
    } finally {
      await app.db.update(partners).set({ footnote: partner.footnote }).where(eq(partners.id, partner.id));
    }
  });

  it.skipIf(!databaseUrl())('shows what another process writes once its notification arrives (PostgreSQL)', async () => {
    const user = await registerUser(app, { type: 2 });
    const requestId = (await cached(user)).id as number;
    const other = new pg.Client({ connectionString: databaseUrl()! });
    await other.connect();
    try {
      await other.query(`insert into timeline_items (request_id, type, date, data) values ($1, 'rejected', '2026-11-21', '{}')`, [requestId]);
      await eventually(user, (p) => (p.status_timeline as unknown[]).length === 1);
      await other.query('update registration_requests set step = $1, version = version + 1 where id = $2', ['requesting-company-step-2', requestId]);
      await eventually(user, (p) => p.step === 'requesting-company-step-2');
      // Each table the answer reads notifies: documents (through the request), identity photos (through the session).
      const { rows: [file] } = await other.query(
        `insert into files (user_id, storage_key, original_name, content_type, size) values ($1, $2, 'diploma.pdf', 'application/pdf', 10) returning id`,
        [user.user.id, `read-cache-${requestId}`],
      );
      await other.query(`insert into request_documents (request_id, file_id, kind) values ($1, $2, 'diploma')`, [requestId, file.id]);
      await eventually(user, (p) => (p.media as { diploma_documents: unknown[] }).diploma_documents.length === 1);
      await sessionWithUploads(app, user.token);
      await eventually(user, (p) => (p.media as Record<string, unknown>).veriff_document_front !== null);
      await other.query('delete from identity_uploads where identity_session_id in (select id from identity_sessions where user_id = $1)', [user.user.id]);
      await eventually(user, (p) => (p.media as Record<string, unknown>).veriff_document_front === null);
    } finally {
      await other.end();
    }
    const rows = await app.db.select().from(timelineItems).where(eq(timelineItems.requestId, requestId));
    expect(rows).toHaveLength(1);
  });

  it('a logout, or every session revoked (password change), answers 401 at once', async () => {
    const user = await registerUser(app, { type: 2 });
    await cached(user);
    expect((await app.inject({ method: 'POST', url: '/api/logout', headers: auth(user.token) })).statusCode).toBe(200);
    expect((await open(user)).statusCode).toBe(401);

    const other = await registerUser(app, { type: 2 });
    await cached(other);
    await revokeAllTokens(app.db, other.user.id);
    expect((await open(other)).statusCode).toBe(401);
  });

  it('idle expiry is counted on every hit; the last use is written once a minute, as without the cache', async () => {
    const user = await registerUser(app, { type: 2 });
    await cached(user);
    const key = readCacheKey(2, user.token);
    const entry = app.readCache!.get(key, Date.now())!;
    const tokenWhere = eq(tokens.tokenHash, hashToken(user.token));
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000);

    // Last used two minutes ago: the hit answers from memory and writes the use (one query, no read).
    entry.lastUsedAt = minutesAgo(2).getTime();
    await app.db.update(tokens).set({ lastUsedAt: minutesAgo(2) }).where(tokenWhere);
    const [touched, queries] = await counted(() => open(user));
    expect(touched.statusCode).toBe(200);
    expect(queries).toBe(1);
    const [row] = await app.db.select().from(tokens).where(tokenWhere);
    expect(row.lastUsedAt!.getTime()).toBeGreaterThan(minutesAgo(1).getTime());
    await settled();
    expect((await counted(() => open(user)))[1]).toBe(0);

    // Idle for longer than ACCESS_TOKEN_IDLE_MINUTES: 401, though the entry is there.
    app.readCache!.get(key, Date.now())!.lastUsedAt = minutesAgo(IDLE_MINUTES + 1).getTime();
    await app.db.update(tokens).set({ lastUsedAt: minutesAgo(IDLE_MINUTES + 1) }).where(tokenWhere);
    expect((await open(user)).statusCode).toBe(401);
    expect(app.readCache!.get(key, Date.now())).toBeUndefined();

    // Time passing does the same (the entry's TTL and the idle time both run out).
    const other = await registerUser(app, { type: 2 });
    await cached(other);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + (IDLE_MINUTES + 1) * 60 * 1000);
    expect((await open(other)).statusCode).toBe(401);
  });

  it('a hit is live by the same rule as the database: expiry, idle time; the use is due once a minute', () => {
    const now = Date.now();
    const session = { tokenId: 1, userId: 1, createdAt: now - 60 * 60_000, lastUsedAt: now - 5 * 60_000, expiresAt: null };
    expect(sessionLive(session, now, 10)).toBe(true);
    expect(sessionLive(session, now, 5)).toBe(false);
    expect(sessionLive({ ...session, lastUsedAt: null }, now, 61)).toBe(true);
    expect(sessionLive({ ...session, lastUsedAt: null }, now, 60)).toBe(false);
    expect(sessionLive({ ...session, expiresAt: now }, now, 10)).toBe(false);
    expect(touchDue(session, now)).toBe(true);
    expect(touchDue({ ...session, lastUsedAt: now - 30_000 }, now)).toBe(false);
    expect(touchDue({ ...session, lastUsedAt: null }, now)).toBe(true);
  });
});

/** A change feed driven by the test. */
function fakeFeed() {
  const listeners = new Set<(change: Change) => void>();
  const feed = {
    connected: true,
    isSettled: true,
    emit: (change: Change) => listeners.forEach((l) => l(change)),
    subscribe(listener: (change: Change) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    settled() {
      return feed.isSettled;
    },
    listenerPid: null,
    close: async () => undefined,
  };
  return feed satisfies ChangeFeed;
}

const answer = (userId: number, body = `{"user":${userId}}`) => ({ body, userId, tokenId: userId, createdAt: 0, lastUsedAt: null, expiresAt: null });

describe('ReadCache', () => {
  it('is off while the feed is down or this process’s writes are unconfirmed; a reconnect clears it', () => {
    const feed = fakeFeed();
    const cache = new ReadCache(feed, 10);
    expect(cache.set('a', cache.begin(), answer(1))).toBe(true);
    expect(cache.get('a', Date.now())?.body).toBe('{"user":1}');
    feed.isSettled = false;
    expect(cache.get('a', Date.now())).toBeUndefined();
    feed.isSettled = true;
    feed.connected = false;
    expect(cache.get('a', Date.now())).toBeUndefined();
    expect(cache.set('b', cache.begin(), answer(2))).toBe(false);
    feed.emit({ all: true });
    feed.connected = true;
    expect(cache.get('a', Date.now())).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps no read that a change of its user (or a clear) overtook; drops by user; LRU and TTL bound it', () => {
    const feed = fakeFeed();
    const cache = new ReadCache(feed, 2);
    const started = cache.begin();
    feed.emit({ userId: 1 });
    expect(cache.set('a', started, answer(1))).toBe(false);
    expect(cache.set('b', started, answer(2))).toBe(true);
    const later = cache.begin();
    feed.emit({ all: true });
    expect(cache.set('c', later, answer(3))).toBe(false);

    const now = Date.now();
    cache.set('u1', cache.begin(), answer(1), now);
    cache.set('u1-other-flow', cache.begin(), answer(1), now);
    feed.emit({ userId: 1 });
    expect(cache.size).toBe(0);
    cache.set('x', cache.begin(), answer(4), now);
    cache.set('y', cache.begin(), answer(5), now);
    cache.get('x', now);
    cache.set('z', cache.begin(), answer(6), now);
    // y was the least recently used.
    expect(cache.get('y', now)).toBeUndefined();
    expect(cache.get('x', now)).toBeDefined();
    expect(cache.get('z', now + READ_CACHE_TTL_MS)).toBeUndefined();
    cache.close();
  });
});

describe.skipIf(!databaseUrl())('the LISTEN connection (PostgreSQL)', () => {
  it('while it is down every open reads the database; back, it caches again', async () => {
    const user = await registerUser(app, { type: 2 });
    await cached(user);
    const changes = app.database.changes;
    const pid = changes.listenerPid;
    expect(pid).toEqual(expect.any(Number));
    const admin = new pg.Client({ connectionString: databaseUrl()! });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    for (let i = 0; i < 100 && changes.connected; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes.connected).toBe(false);
    const [down, queries] = await counted(() => open(user));
    expect(down.statusCode).toBe(200);
    expect(queries).toBeGreaterThan(0);
    // Reconnected after a second: cached again.
    for (let i = 0; i < 300 && !changes.connected; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changes.connected).toBe(true);
    expect((await cached(user)).id).toEqual(expect.any(Number));
  });
});
