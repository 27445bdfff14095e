import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { tokens, users } from '../db/schema';
import { perDatabase } from '../db/per-database';

export type TokenPurpose = (typeof tokens.$inferSelect)['purpose'];
export type UserRow = typeof users.$inferSelect;

export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Creates a random secret (256 bits), stores only its hash and returns the secret. */
export async function issueToken(
  db: Db,
  userId: number,
  purpose: TokenPurpose,
  options: { ttlSeconds?: number; source?: string | null; redirect?: string | null } = {},
): Promise<{ secret: string; expiresAt: Date | null }> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = options.ttlSeconds ? new Date(Date.now() + options.ttlSeconds * 1000) : null;
  await db.insert(tokens).values({
    userId,
    purpose,
    tokenHash: hashToken(secret),
    source: options.source ?? null,
    redirect: options.redirect ?? null,
    expiresAt,
  });
  return { secret, expiresAt };
}

function live(purpose: TokenPurpose, secret: string) {
  return and(
    eq(tokens.tokenHash, hashToken(secret)),
    eq(tokens.purpose, purpose),
    isNull(tokens.revokedAt),
    or(isNull(tokens.expiresAt), gt(tokens.expiresAt, new Date())),
  );
}

/** The token and its user when the secret is live (not revoked, not expired); single-use tokens also unused. */
export async function findToken(db: Db, secret: string, purpose: TokenPurpose) {
  const [row] = await db
    .select({ token: tokens, user: users })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(live(purpose, secret));
  return row ?? null;
}

/** Writing `last_used_at` at most this often per token: a request does not write the database each time. */
export const TOUCH_INTERVAL_MS = 60 * 1000;

/**
 * What makes an access token live, with placeholders `hash`, `now` and `idleSince`
 * (`accessTokenParams`): the one condition of every signed-in request, whether the token is looked
 * up alone (`findAccessToken`) or with what the route reads (the registration request:
 * server/registration/store.ts `signedInRequest`).
 */
export function liveAccessToken() {
  return and(
    eq(tokens.tokenHash, sql.placeholder('hash')),
    eq(tokens.purpose, 'access'),
    isNull(tokens.revokedAt),
    or(isNull(tokens.expiresAt), gt(tokens.expiresAt, sql.placeholder('now'))),
    sql`coalesce(${tokens.lastUsedAt}, ${tokens.createdAt}) > ${sql.placeholder('idleSince')}::timestamptz`,
  );
}

/** The values of `liveAccessToken`'s placeholders for a secret (idle expiry after `idleMinutes`). */
export function accessTokenParams(secret: string, idleMinutes: number, now: Date) {
  return { hash: hashToken(secret), now, idleSince: new Date(now.getTime() - idleMinutes * 60 * 1000).toISOString() };
}

/**
 * The access-token lookup runs on every signed-in request: built once per database as a prepared
 * statement (issue 14: building the query each time was a sixth of the CPU of a simple read; on
 * PostgreSQL the statement is also parsed once per connection).
 */
const accessTokenLookup = perDatabase((db) =>
  db.select({ token: tokens, user: users }).from(tokens).innerJoin(users, eq(users.id, tokens.userId)).where(liveAccessToken()).prepare('find_access_token'),
);

/**
 * Marks a live token used, at most once a minute per token (`TOUCH_INTERVAL_MS`): a request does
 * not write the database each time.
 */
export async function touchAccessToken(db: Db, token: { id: number; lastUsedAt: Date | null }, now: Date): Promise<void> {
  const touchedBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  if (token.lastUsedAt && token.lastUsedAt >= touchedBefore) return;
  // Conditional: of concurrent requests with the same token, one writes.
  await db
    .update(tokens)
    .set({ lastUsedAt: now })
    .where(and(eq(tokens.id, token.id), or(isNull(tokens.lastUsedAt), lt(tokens.lastUsedAt, touchedBefore))));
}

/**
 * A live access token and its user, unless it has not been used for `idleMinutes` (idle expiry,
 * counted from `last_used_at`, or from its creation when never used). Then marks it used, at most
 * once a minute per token.
 */
export async function findAccessToken(db: Db, secret: string, idleMinutes: number, now = new Date()) {
  const [row] = await accessTokenLookup(db).execute(accessTokenParams(secret, idleMinutes, now));
  if (!row) return null;
  await touchAccessToken(db, row.token, now);
  return row;
}

export async function consumeToken(db: Db, secret: string, purpose: TokenPurpose) {
  const [token] = await db
    .update(tokens)
    .set({ usedAt: new Date() })
    .where(and(live(purpose, secret), isNull(tokens.usedAt)))
    .returning();
  if (!token) return null;
  const [user] = await db.select().from(users).where(eq(users.id, token.userId));
  return user ? { token, user } : null;
}

export async function revokeToken(db: Db, tokenId: number): Promise<void> {
  await db.update(tokens).set({ revokedAt: new Date() }).where(eq(tokens.id, tokenId));
}

export async function revokeAllTokens(db: Db, userId: number, purpose?: TokenPurpose): Promise<void> {
  await db
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(tokens.userId, userId), purpose ? eq(tokens.purpose, purpose) : undefined, isNull(tokens.revokedAt)));
}
