import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/**
 * The database's change notifications (migration 0012: triggers `pg_notify('read_cache', user id)`
 * on every table a registration answer or its session check reads, `*` for partners, prices and
 * places), for the in-process read cache (server/registration/read-cache.ts).
 *
 * - PGlite: one in-process session; its notifications arrive with the result of the query that
 *   committed them (before the writer's `await` returns), so nothing is ever in flight.
 * - PostgreSQL: a dedicated LISTEN connection (reconnects after 1 s, doubling up to 30 s). While it
 *   is down the feed is not `connected` (the cache is off) and a reconnect clears everything. A
 *   notification arrives asynchronously after its commit, so the feed also tracks the writes of this
 *   process (`trackWrites` wraps the pool): after one completes, the feed is not `settled` until a
 *   sync notification sent after it came back on the LISTEN connection (PostgreSQL delivers
 *   notifications in commit order), i.e. until every notification of this process's writes arrived.
 *   The read cache answers only when settled: a write made by this process (any route, an operator's,
 *   a webhook's, a test's direct SQL) is seen by its next read.
 */
export type Change = { userId: number } | { all: true };

export interface ChangeFeed {
  /** Calls `listener` with every change; the first subscriber starts listening. Returns the unsubscribe. */
  subscribe(listener: (change: Change) => void): () => void;
  /** Listening now (a reconnect reports `{ all: true }` first: changes may have been missed). */
  readonly connected: boolean;
  /** Every write this process completed has had its notifications delivered; else a sync is asked for. */
  settled(): boolean;
  /** PostgreSQL: the LISTEN connection's backend pid (tests end it to show the cache goes off). */
  readonly listenerPid: number | null;
  close(): Promise<void>;
}

export const CHANGE_CHANNEL = 'read_cache';

function parse(payload: string): Change | null {
  if (payload === '*') return { all: true };
  const userId = Number(payload);
  return Number.isSafeInteger(userId) && userId > 0 ? { userId } : null;
}

/** Listeners, shared by both kinds of feed. */
class Listeners {
  private readonly set = new Set<(change: Change) => void>();
  add(listener: (change: Change) => void) {
    this.set.add(listener);
    return () => void this.set.delete(listener);
  }
  get size() {
    return this.set.size;
  }
  emit(change: Change) {
    for (const listener of this.set) listener(change);
  }
}

/** PGlite: `listen` on the one session. */
export function pgliteChanges(client: { listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> }): ChangeFeed {
  const listeners = new Listeners();
  let connected = false;
  let started: Promise<void> | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  return {
    subscribe(listener) {
      const off = listeners.add(listener);
      started ??= client
        .listen(CHANGE_CHANNEL, (payload) => {
          const change = parse(payload);
          if (change) listeners.emit(change);
        })
        .then((stop) => {
          unlisten = () => stop();
          connected = true;
        });
      return off;
    },
    get connected() {
      return connected;
    },
    settled: () => true,
    listenerPid: null,
    async close() {
      connected = false;
      await unlisten?.().catch(() => undefined);
    },
  };
}

/** A statement that writes nothing this feed would be told about. */
function notifiesNothing(text: string | undefined): boolean {
  if (!text) return false;
  // Reads; and the touch of an access token (`touchAccessToken`), which the tokens trigger ignores.
  return /^\s*select\b/i.test(text) || /^update "tokens" set "last_used_at" = \$1 where/.test(text);
}

type QueryFn = (...args: unknown[]) => unknown;

/** PostgreSQL: a LISTEN connection of its own, and the writes of `pool` tracked (see above). */
export function postgresChanges(pool: pg.Pool, connect: () => pg.Client): ChangeFeed {
  const listeners = new Listeners();
  const nonce = randomBytes(6).toString('hex');
  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let retryMs = 1000;
  let retryTimer: NodeJS.Timeout | null = null;
  let listenerPid: number | null = null;
  // Writes of this process completed, and how many of them a returned sync notification covers.
  let completed = 0;
  let acknowledged = 0;
  let syncing = false;

  const originalQuery = pool.query.bind(pool) as QueryFn;

  function sync() {
    if (syncing || !connected) return;
    syncing = true;
    const covers = completed;
    Promise.resolve(originalQuery('select pg_notify($1, $2)', [CHANGE_CHANNEL, `sync:${nonce}:${covers}`]))
      .catch(() => undefined)
      .finally(() => (syncing = false));
  }

  function onNotification(message: pg.Notification) {
    const payload = message.payload ?? '';
    if (payload.startsWith('sync:')) {
      const [, from, covers] = payload.split(':');
      if (from === nonce) acknowledged = Math.max(acknowledged, Number(covers));
      return;
    }
    const change = parse(payload);
    if (change) listeners.emit(change);
  }

  function down() {
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end().catch(() => undefined);
      client = null;
    }
    listenerPid = null;
    if (connected) {
      connected = false;
      listeners.emit({ all: true });
    }
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void listen();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  }

  async function listen() {
    if (closed || client) return;
    const next = connect();
    client = next;
    next.on('error', down);
    next.on('end', down);
    next.on('notification', onNotification);
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGE_CHANNEL}`);
      const { rows } = await next.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (client !== next) return;
      listenerPid = rows[0].pid;
      retryMs = 1000;
      // Whatever changed while nobody listened is unknown: everything is dropped.
      listeners.emit({ all: true });
      connected = true;
    } catch {
      if (client === next) down();
    }
  }

  /** Counts a statement's completion (unless it notifies nothing), whatever the calling convention. */
  function tracked(run: QueryFn): QueryFn {
    return function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : first?.text;
      if (notifiesNothing(text)) return run.apply(this, args);
      const done = () => void completed++;
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as QueryFn;
        args[last] = (...results: unknown[]) => {
          done();
          return callback(...results);
        };
        return run.apply(this, args);
      }
      const result = run.apply(this, args) as Promise<unknown> | undefined;
      if (result && typeof result.then === 'function') {
        result.then(done, done);
      } else done();
      return result;
    };
  }

  // pool.query (every statement outside a transaction; it hands its client a callback, counted here
  // only) and the clients of transactions (pool.connect() without a callback, as Drizzle calls it).
  pool.query = tracked(pool.query as QueryFn) as typeof pool.query;
  const wrapped = new WeakSet<object>();
  const originalConnect = pool.connect.bind(pool) as QueryFn;
  pool.connect = function (...args: unknown[]) {
    if (args.length) return originalConnect(...args);
    return (originalConnect() as Promise<pg.PoolClient>).then((poolClient) => {
      if (!wrapped.has(poolClient)) {
        wrapped.add(poolClient);
        const own = poolClient.query as QueryFn;
        poolClient.query = tracked((...a: unknown[]) => own.apply(poolClient, a)) as typeof poolClient.query;
      }
      return poolClient;
    });
  } as typeof pool.connect;

  return {
    subscribe(listener) {
      const off = listeners.add(listener);
      if (!client && !retryTimer) void listen();
      return off;
    },
    get connected() {
      return connected;
    },
    settled() {
      if (acknowledged >= completed) return true;
      sync();
      return false;
    },
    get listenerPid() {
      return listenerPid;
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const last = client;
      client = null;
      connected = false;
      if (last) {
        last.removeAllListeners();
        last.on('error', () => undefined);
        await last.end().catch(() => undefined);
      }
    },
  };
}
