import { and, asc, desc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { outbox } from '../db/schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Delivers one mail now (SMTP with nodemailer); throws when the server refuses or cannot be reached. */
export interface MailTransport {
  send(mail: Mail): Promise<void>;
  close?(): void;
}

/** Sends through SMTP with nodemailer (`SMTP_URL`, e.g. smtp://user:pass@host:587), with bounded timeouts. */
export class SmtpTransport implements MailTransport {
  private transport: Promise<{ sendMail(m: object): Promise<unknown>; close(): void }>;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = import('nodemailer').then((m) =>
      // A queued mail is retried: a hanging server must not hold it longer than the claim's lease.
      m.default.createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    );
  }

  async send(mail: Mail): Promise<void> {
    await (await this.transport).sendMail({ from: this.from, ...mail });
  }

  close(): void {
    void this.transport.then((t) => t.close());
  }
}

export interface MailQueueOptions {
  /** How often the worker looks at the queue besides being woken (default 2 s). */
  pollMs?: number;
  /** First retry delay after a failed send; doubles each attempt up to `maxRetryMs` (default 5 s). */
  retryBaseMs?: number;
  /** Longest retry delay (default 15 min). */
  maxRetryMs?: number;
  /** Attempts before a mail is given up (default 10). */
  maxAttempts?: number;
  /** A claimed mail not marked sent or failed within this time is claimed again (a worker died) (default 2 min). */
  leaseMs?: number;
}

/** Mails older than this are never sent any more (a reset link in them has long expired). */
const MAX_AGE = sql`interval '1 day'`;
const BATCH = 10;

/**
 * The durable mail queue: `queue()` writes the mail into the `outbox` table with the caller's
 * database handle, the transaction of what caused the mail (a registration, a reset), so the mail
 * exists exactly when that did. With a transport (SMTP) a worker sends queued mails: it claims
 * them with `FOR UPDATE SKIP LOCKED` (one UPDATE … WHERE id IN (SELECT … SKIP LOCKED), so several
 * app instances never claim one mail twice), sends, marks them sent, and after a failure retries
 * with exponential backoff. Without a transport (development) mails stay in the table, shown at
 * /dev/outbox.
 */
export class MailQueue {
  readonly kind: 'outbox' | 'smtp';
  private readonly pollMs: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryMs: number;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport | null,
    options: MailQueueOptions = {},
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.kind = transport ? 'smtp' : 'outbox';
    this.pollMs = options.pollMs ?? 2000;
    this.retryBaseMs = options.retryBaseMs ?? 5000;
    this.maxRetryMs = options.maxRetryMs ?? 15 * 60_000;
    this.maxAttempts = options.maxAttempts ?? 10;
    this.leaseMs = options.leaseMs ?? 120_000;
  }

  /** Writes the mail into the queue with `db`: pass the transaction of what caused the mail. */
  async queue(db: Db, mail: Mail): Promise<void> {
    await db.insert(outbox).values(mail);
  }

  /** After the causing transaction committed: look at the queue now rather than at the next poll. */
  wake(): void {
    if (this.started && !this.stopped) void this.drain();
  }

  start(): void {
    if (!this.transport || this.started) return;
    this.started = true;
    const tick = () => {
      this.timer = setTimeout(() => {
        void this.drain().finally(() => {
          if (!this.stopped) tick();
        });
      }, this.pollMs);
      this.timer.unref();
    };
    void this.drain();
    tick();
  }

  /** Stops polling and waits for the mails being sent to be marked. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    this.transport?.close?.();
  }

  /** Sends every mail due now (one pass at a time per instance; a wake during a pass makes another pass). */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.sendBatch()) === BATCH);
        } while (this.again && !this.stopped);
      } catch (error) {
        this.onError(error);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Claims up to BATCH due mails, sends them, records each result; returns how many were claimed. */
  private async sendBatch(): Promise<number> {
    const transport = this.transport;
    if (!transport) return 0;
    const due = this.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          isNull(outbox.sentAt),
          lte(outbox.nextAttemptAt, sql`now()`),
          gt(outbox.createdAt, sql`now() - ${MAX_AGE}`),
        ),
      )
      .orderBy(asc(outbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await this.db
      .update(outbox)
      .set({
        attempts: sql`${outbox.attempts} + 1`,
        nextAttemptAt: sql`now() + ${`${this.leaseMs} milliseconds`}::interval`,
      })
      .where(inArray(outbox.id, due))
      .returning();
    for (const row of claimed) {
      try {
        await transport.send({ to: row.to, subject: row.subject, text: row.text, html: row.html });
        await this.db.update(outbox).set({ sentAt: sql`now()`, nextAttemptAt: null, lastError: null }).where(eq(outbox.id, row.id));
      } catch (error) {
        const delay = Math.min(this.retryBaseMs * 2 ** (row.attempts - 1), this.maxRetryMs);
        const message = error instanceof Error ? error.message : String(error);
        await this.db
          .update(outbox)
          .set({
            lastError: message.slice(0, 1000),
            nextAttemptAt: row.attempts >= this.maxAttempts ? null : sql`now() + ${`${delay} milliseconds`}::interval`,
          })
          .where(eq(outbox.id, row.id));
      }
    }
    return claimed.length;
  }
}

export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((m) => m[0]);
}

export async function readOutbox(db: Db, options: { to?: string; limit?: number } = {}) {
  const rows = await db
    .select()
    .from(outbox)
    .where(options.to ? eq(outbox.to, options.to.trim().toLowerCase()) : undefined)
    .orderBy(desc(outbox.id))
    .limit(options.limit ?? 50);
  return rows.map((r) => ({
    id: r.id,
    to: r.to,
    subject: r.subject,
    text: r.text,
    html: r.html,
    links: linksIn(r.text),
    created_at: r.createdAt.toISOString(),
  }));
}
