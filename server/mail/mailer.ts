import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { outbox } from '../db/schema';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends mail. Two implementations: the database outbox (default) and SMTP. */
export interface Mailer {
  readonly kind: 'outbox' | 'smtp';
  send(mail: Mail): Promise<void>;
}

/** Keeps every mail in the `outbox` table, readable at /dev/outbox and GET /api/dev/outbox. */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;
  constructor(private readonly db: Db) {}

  async send(mail: Mail): Promise<void> {
    await this.db.insert(outbox).values(mail);
  }
}

/** Sends through SMTP with nodemailer (`SMTP_URL`, e.g. smtp://user:pass@host:587). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private transport: Promise<{ sendMail(m: object): Promise<unknown> }>;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
  }

  async send(mail: Mail): Promise<void> {
    await (await this.transport).sendMail({ from: this.from, ...mail });
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
