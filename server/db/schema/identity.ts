import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { files } from './files';

// Identity verification: sessions, their photos, processed webhooks and the built-in simulator's
// state.

/**
 * A user's identity verification session (spec 000 §3 "Identity session", §4.4). `sessionId` is the
 * provider's id; `status` 1 collecting uploads, 4 submitted, 2 approved, 3 rejected. At most one open
 * (1 or 4) session per user, so a double click cannot make two.
 */
export const identitySessions = pgTable(
  'identity_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** 'veriff' or 'simulator' */
    provider: text('provider').notNull(),
    sessionId: text('session_id').notNull(),
    customId: text('custom_id').notNull(),
    status: smallint('status').notNull().default(1),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The provider's decision code (Veriff: 9001 approved, 9102 declined, ...). */
    decisionCode: integer('decision_code'),
    reasonCode: integer('reason_code'),
    /** Why it was not approved, in Romanian (null when unknown). */
    reason: text('reason'),
    /** What the document says: first_name, last_name, personal_code, place_of_birth, date_of_birth. */
    person: jsonb('person').$type<Record<string, unknown>>(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** When the retention job deleted the session's photos (the decision and `person` stay; issue 32). */
    mediaErasedAt: timestamp('media_erased_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('identity_sessions_session_id_unique').on(t.sessionId),
    index('identity_sessions_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('identity_sessions_user_open_unique')
      .on(t.userId)
      .where(sql`${t.deletedAt} is null and ${t.status} in (1, 4)`),
  ],
);

/** The photo of each upload context (document-front, document-back, face) of a session. */
export const identityUploads = pgTable(
  'identity_uploads',
  {
    id: serial('id').primaryKey(),
    identitySessionId: integer('identity_session_id')
      .notNull()
      .references(() => identitySessions.id, { onDelete: 'cascade' }),
    context: text('context').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('identity_uploads_session_context_unique').on(t.identitySessionId, t.context)],
);

/** SHA-256 of every provider webhook body already processed: a replay changes nothing. */
export const processedWebhooks = pgTable('processed_webhooks', {
  digest: text('digest').primaryKey(),
  provider: text('provider').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * State of the built-in identity simulator, which stands in for the provider's servers: its
 * sessions, the names of the photos it received and when it was asked to decide.
 */
export const idvSimulatorSessions = pgTable('idv_simulator_sessions', {
  sessionId: text('session_id').primaryKey(),
  vendorData: text('vendor_data'),
  /** Uploaded media: context and file name, in order. */
  media: jsonb('media').$type<{ context: string; name: string }[]>().notNull().default([]),
  submittedAt: timestamp('submitted_at', { withTimezone: true }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
