import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// Staff accounts, their sessions and the audit log of what they did (issue 18).

/**
 * Staff accounts (issue 18), apart from the applicants' `users`: `editor` previews the flows,
 * `operator` works on dossiers. Created with `npm run ops -- staff:add`. The e-mail is stored
 * lower-cased and trimmed; the password as `users.password_hash` (server/lib/passwords.ts).
 */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['editor', 'operator'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_users_email_unique').on(t.email)],
);

/** Staff sign-in sessions: their own table, never the applicants' `tokens` (only the SHA-256 of the secret). */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial('id').primaryKey(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Last request made with it (written at most once a minute); idle expiry counts from here. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_sessions_hash_unique').on(t.tokenHash), index('staff_sessions_user_idx').on(t.staffUserId)],
);

/**
 * What staff did (issue 18): one row per action, written in the transaction of the change.
 * `staff_user_id` null: the shared OPS_TOKEN (`npm run ops`). `before`/`after`: the changed state.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffUserId: integer('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    /** The operator named by `X-Ops-Actor` when the shared OPS_TOKEN acts (staff_user_id null; issue 32). */
    actor: text('actor'),
    action: text('action').notNull(),
    /** The dossier (registration request) acted on; no foreign key: the entry outlives a deleted request. */
    requestId: integer('request_id'),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
  },
  (t) => [index('audit_log_request_idx').on(t.requestId, t.at), index('audit_log_at_idx').on(t.at)],
);
