import { hashToken, TOUCH_INTERVAL_MS } from '../lib/tokens';
import type { ChangeFeed } from '../db/changes';

/**
 * The in-process cache of `GET /api/registration/open` and `…/existing/open` (issue 14: a read
 * answered from memory when nothing changed). docs/decisions/0004-read-cache.md says the same in prose.
 *
 * - Key: the flow's registration type and the SHA-256 of the bearer token (the secret is never kept).
 *   The answer depends on nothing else: its `message` is empty in every language, and the route's
 *   query flags (`timestamp`, `no_next_step`) do not change it.
 * - Value: the answer as Fastify serialized it (JSON text, before compression), with what the session
 *   check needs: the token's id, creation, expiry and last use, the user.
 * - Bounded: at most `maxEntries` (least recently used out first), each at most `ttlMs` old.
 * - Invalidated by the database (migration 0012's triggers, server/db/changes.ts): a change of the
 *   user's token, user, request or anything the answer carries drops the user's entries; partners,
 *   prices and places drop all. This instance's calls that write (any non-GET of a signed-in user)
 *   also drop the user's entries before they answer.
 * - Off while the LISTEN connection is down (cleared when it is back), and on PostgreSQL until every
 *   write this process made has had its notifications delivered (`ChangeFeed.settled`).
 * - A read that was under way when its user's entries were dropped (or the cache cleared) is not kept:
 *   it may predate the change.
 */
export const READ_CACHE_TTL_MS = 30_000;

/** What the session check of a hit needs (the token row's times as epoch milliseconds). */
export interface CachedSession {
  tokenId: number;
  userId: number;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
}

export interface CachedAnswer extends CachedSession {
  key: string;
  /** The serialized answer (JSON). */
  body: string;
  storedAt: number;
}

export function readCacheKey(registrationType: number, secret: string): string {
  return `${registrationType}:${hashToken(secret)}`;
}

/**
 * The same rule as `liveAccessToken` (server/lib/tokens.ts) on what the entry knows: not expired,
 * used within `idleMinutes`. The entry's last use is never later than the database's, so "live" here
 * is live there; anything else goes to the database (which answers 401, or reads the newer use).
 */
export function sessionLive(entry: CachedSession, now: number, idleMinutes: number): boolean {
  if (entry.expiresAt !== null && entry.expiresAt <= now) return false;
  return (entry.lastUsedAt ?? entry.createdAt) > now - idleMinutes * 60_000;
}

/** `touchAccessToken`'s condition: the token's last use is written at most once a minute. */
export function touchDue(entry: CachedSession, now: number): boolean {
  return entry.lastUsedAt === null || entry.lastUsedAt < now - TOUCH_INTERVAL_MS;
}

export class ReadCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private readonly byUser = new Map<number, Set<string>>();
  /** Bumped by every drop; a read records it when it starts (`begin`). */
  private seq = 0;
  /** Reads started before this are never kept (the cache was cleared since). */
  private floor = 0;
  /** When each user's entries were last dropped (bounded: past `maxEntries` users, `floor` moves instead). */
  private readonly droppedAt = new Map<number, number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly maxEntries: number,
    private readonly ttlMs = READ_CACHE_TTL_MS,
  ) {
    this.unsubscribe = feed.subscribe((change) => ('all' in change ? this.clear() : this.dropUser(change.userId)));
  }

  get size(): number {
    return this.entries.size;
  }

  /** Answers may come from memory: listening, and every write of this process seen. */
  get on(): boolean {
    return this.feed.connected && this.feed.settled();
  }

  /** To call before the database read whose answer may be kept (`set`). */
  begin(): number {
    return this.seq;
  }

  get(key: string, now: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry || !this.on) return undefined;
    if (now - entry.storedAt >= this.ttlMs) {
      this.remove(entry);
      return undefined;
    }
    // Most recently used last: the first in the map is the one to evict.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Keeps an answer read from the database since `started`, unless its user's entries were dropped meanwhile. */
  set(key: string, started: number, answer: Omit<CachedAnswer, 'key' | 'storedAt'>, now = Date.now()): boolean {
    if (!this.feed.connected || started < this.floor || (this.droppedAt.get(answer.userId) ?? -1) > started) return false;
    const existing = this.entries.get(key);
    if (existing) this.remove(existing);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.values().next().value;
      if (!oldest) break;
      this.remove(oldest);
    }
    this.entries.set(key, { ...answer, key, storedAt: now });
    let keys = this.byUser.get(answer.userId);
    if (!keys) this.byUser.set(answer.userId, (keys = new Set()));
    keys.add(key);
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(entry);
  }

  dropUser(userId: number): void {
    this.seq++;
    if (this.droppedAt.size >= this.maxEntries) {
      this.droppedAt.clear();
      this.floor = this.seq;
    }
    this.droppedAt.set(userId, this.seq);
    const keys = this.byUser.get(userId);
    if (!keys) return;
    this.byUser.delete(userId);
    for (const key of keys) this.entries.delete(key);
  }

  clear(): void {
    this.seq++;
    this.floor = this.seq;
    this.droppedAt.clear();
    this.entries.clear();
    this.byUser.clear();
  }

  close(): void {
    this.unsubscribe();
    this.clear();
  }

  private remove(entry: CachedAnswer): void {
    this.entries.delete(entry.key);
    const keys = this.byUser.get(entry.userId);
    keys?.delete(entry.key);
    if (keys?.size === 0) this.byUser.delete(entry.userId);
  }
}
