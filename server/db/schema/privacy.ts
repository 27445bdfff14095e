import { date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Personal data (issue 32): consents, what the law keeps after an erasure, retention warnings sent.

/**
 * Consents an applicant gave (issue 32): accepting the terms and the privacy policy at registration
 * (`terms`, with the version of the texts accepted) and marketing mails (`marketing`, withdrawn by
 * the unsubscribe link). One row per consent given; withdrawing sets `withdrawn_at`.
 */
export const consents = pgTable(
  'consents',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['terms', 'marketing'] }).notNull(),
    /** The texts accepted: `termeni <date> <sha256 prefix>; confidentialitate <date> <sha256 prefix>` (server/privacy/consents.ts). */
    version: text('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [index('consents_user_idx').on(t.userId, t.kind)],
);

/**
 * What the law makes us keep after an account is erased (issue 32, GDPR art. 17(3)(b)): payment
 * records under the accounting law, the signed legal-assistance contract while it binds, reduced to
 * what that law needs. No link to `users` (the account is gone); `subject` is how the record names
 * its person, `keep_until` when the retention job deletes it (and its file).
 */
export const retainedRecords = pgTable(
  'retained_records',
  {
    id: serial('id').primaryKey(),
    /** 'payment' or 'contract' */
    kind: text('kind', { enum: ['payment', 'contract'] }).notNull(),
    /** The erased account's e-mail, so a later written request or an audit finds the record. */
    subject: text('subject').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** The stored file kept with it (the signed contract's PDF), else null. */
    storageKey: text('storage_key'),
    contentType: text('content_type'),
    keepUntil: date('keep_until', { mode: 'string' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('retained_records_keep_until_idx').on(t.keepUntil), index('retained_records_subject_idx').on(t.subject)],
);

/** Retention warnings sent (issue 32): one per user and period of inactivity (`last_action_at` it counted from). */
export const retentionNotices = pgTable(
  'retention_notices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    lastActionAt: timestamp('last_action_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('retention_notices_unique').on(t.userId, t.kind, t.lastActionAt)],
);
