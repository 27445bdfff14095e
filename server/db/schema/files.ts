import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Uploaded files and the stored files waiting to be deleted.

/**
 * Uploaded files of a user (identity photos, later documents and signatures). The bytes live in the
 * file storage (`app.storage`) under `storageKey`, a random name; they are served only to their owner.
 */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('files_storage_key_unique').on(t.storageKey), index('files_user_idx').on(t.userId)],
);

/**
 * Stored files whose rows are already erased (issue 32): written in the erasure's transaction and
 * deleted from the storage right after it; what a failure leaves here the retention job deletes.
 */
export const fileDeletions = pgTable('file_deletions', {
  storageKey: text('storage_key').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  attempts: integer('attempts').notNull().default(0),
});
