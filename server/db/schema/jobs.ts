import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

// Background machinery: the mail queue, scheduled job runs and seed runs.

/**
 * Mail queue (and development outbox): a mail is written here in the transaction of what caused it
 * and sent by the worker of server/mail/mailer.ts when SMTP is configured; without SMTP this is where
 * mails are read (/dev/outbox).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Sending attempts made (each claim counts one). */
    attempts: integer('attempts').notNull().default(0),
    /** When a worker may (next) claim it: now for a new mail; a lease while being sent; the backoff after a failure. Null: given up. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    /** The last sending error (SMTP answer or connection error), for the operator. */
    lastError: text('last_error'),
  },
  (t) => [index('outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null`)],
);

/**
 * Runs of scheduled jobs (the retention job, issue 32): the instance that inserts a (job, day) row
 * runs that day's job; the others find it there. Works with any number of instances on one database.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** What the run did (counts), or its error. */
    summary: jsonb('summary').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.job, t.day] })],
);

export const seedRuns = pgTable('seed_runs', {
  name: text('name').primaryKey(),
  checksum: text('checksum').notNull(),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull().default(sql`now()`),
});
