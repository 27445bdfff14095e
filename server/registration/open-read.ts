import type { FastifyInstance, FastifyReply } from 'fastify';
import { touchAccessToken, TOUCH_INTERVAL_MS } from '../lib/tokens';
import { readCacheKey, sessionLive, touchDue } from './read-cache';
import type { SignedInRequest } from './store';

/** An open call's read of the read cache (server/registration/read-cache.ts): its key, when the read started (the cache's mark), when (ms). */
export interface OpenRead {
  key: string;
  started: number;
  at: number;
}

/**
 * The open call (`GET …/open`) before its session check: the answer from the read cache when it
 * holds one for this token and flow and the token is still live by the entry's times (expiry, idle);
 * its last use is written when due, as on a database read. `read` is null when the cache is off.
 */
export async function readOpenFromCache(app: FastifyInstance, registrationType: number, secret: string): Promise<{ read: OpenRead | null; body: string | null }> {
  const cache = app.readCache;
  if (!cache) return { read: null, body: null };
  const key = readCacheKey(registrationType, secret);
  const now = Date.now();
  const read = { key, started: cache.begin(), at: now };
  const entry = cache.get(key, now);
  if (!entry) return { read, body: null };
  if (!sessionLive(entry, now, app.config.accessTokenIdleMinutes)) {
    cache.delete(key);
    return { read, body: null };
  }
  if (touchDue(entry, now)) {
    await touchAccessToken(app.db, { id: entry.tokenId, lastUsedAt: entry.lastUsedAt === null ? null : new Date(entry.lastUsedAt) }, new Date(now));
    entry.lastUsedAt = now;
  }
  return { read, body: entry.body };
}

/** Keeps the open call's answer, read from the database with `session`, in the read cache (once serialized, if a 200). */
export function keepOpenAnswer(app: FastifyInstance, reply: FastifyReply, read: OpenRead, { token, user }: SignedInRequest): void {
  // signedInRequest wrote the token's last use when it was due (touchAccessToken).
  const lastUsedAt = token.lastUsedAt && token.lastUsedAt.getTime() >= read.at - TOUCH_INTERVAL_MS ? token.lastUsedAt.getTime() : read.at;
  app.keepAnswer(reply, read.key, read.started, {
    tokenId: token.id,
    userId: user.id,
    createdAt: token.createdAt.getTime(),
    lastUsedAt,
    expiresAt: token.expiresAt?.getTime() ?? null,
  });
}
