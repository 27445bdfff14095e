import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { staffSessions, staffUsers } from '../db/schema';
import { hashPassword } from '../lib/passwords';
import { hashToken } from '../lib/tokens';
import { normaliseEmail } from '../lib/users';
import { recordAudit } from './audit';

/**
 * Staff accounts and their sessions (issue 18). Apart from the applicants' `users` and `tokens`:
 * a staff secret is looked up only in `staff_sessions`, an applicant's only in `tokens`, so neither
 * works on the other's routes.
 */

export const STAFF_ROLES = ['editor', 'operator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type StaffUserRow = typeof staffUsers.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;

/** A staff session lasts at most this long (a working day and a half), however busy. */
export const STAFF_SESSION_TTL_HOURS = 12;
/** Writing `last_used_at` at most this often per session. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

/** The staff member as the API answers it (`GET /api/staff/me`, the login's payload). */
export function staffView(user: StaffUserRow) {
  return { id: user.id, email: user.email, role: user.role, created_at: user.createdAt.toISOString() };
}

/**
 * A new staff account, or null when the e-mail is taken (the unique index decides between two at
 * once), with its audit entry (`staff.add`, by `actorId`; null: the shared OPS_TOKEN) in the same transaction.
 */
export async function createStaffUser(
  db: Db,
  input: { email: string; password: string; role: StaffRole },
  actorId: number | null = null,
): Promise<StaffUserRow | null> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(staffUsers)
      .values({ email: normaliseEmail(input.email), passwordHash, role: input.role })
      .onConflictDoNothing()
      .returning();
    if (!created) return null;
    await recordAudit(tx, { staffUserId: actorId, action: 'staff.add', after: { id: created.id, email: created.email, role: created.role } });
    return created;
  });
}

export async function staffUserByEmail(db: Db, email: string): Promise<StaffUserRow | null> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, normaliseEmail(email)));
  return row ?? null;
}

/** A random secret (256 bits) for the staff member; only its hash is stored. */
export async function issueStaffSession(db: Db, staffUserId: number, now = new Date()): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + STAFF_SESSION_TTL_HOURS * 3600 * 1000);
  await db.insert(staffSessions).values({ staffUserId, tokenHash: hashToken(secret), expiresAt });
  return { secret, expiresAt };
}

/**
 * The live session of `secret` and its staff member: not revoked, not expired, used within
 * `idleMinutes` (counted from `last_used_at`, or its creation). Marks it used, at most once a minute.
 */
export async function findStaffSession(db: Db, secret: string, idleMinutes: number, now = new Date()) {
  const idleSince = new Date(now.getTime() - idleMinutes * 60 * 1000);
  const [row] = await db
    .select({ session: staffSessions, staff: staffUsers })
    .from(staffSessions)
    .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.staffUserId))
    .where(
      and(
        eq(staffSessions.tokenHash, hashToken(secret)),
        isNull(staffSessions.revokedAt),
        gt(staffSessions.expiresAt, now),
        sql`coalesce(${staffSessions.lastUsedAt}, ${staffSessions.createdAt}) > ${idleSince.toISOString()}::timestamptz`,
      ),
    );
  if (!row) return null;
  const touchedBefore = new Date(now.getTime() - TOUCH_INTERVAL_MS);
  if (!row.session.lastUsedAt || row.session.lastUsedAt < touchedBefore) {
    await db
      .update(staffSessions)
      .set({ lastUsedAt: now })
      .where(and(eq(staffSessions.id, row.session.id), or(isNull(staffSessions.lastUsedAt), lt(staffSessions.lastUsedAt, touchedBefore))));
  }
  return row;
}

export async function revokeStaffSession(db: Db, sessionId: number): Promise<void> {
  await db.update(staffSessions).set({ revokedAt: new Date() }).where(eq(staffSessions.id, sessionId));
}
