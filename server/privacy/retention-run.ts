/** The retention run's parts shared by its rules (server/privacy/retention.ts): the report's types, the idle accounts, the run's state. */
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { retentionNotices, tokens, users } from '../db/schema';
import { requestRetentionStates, type RequestRetentionState } from '../registration/store';

/** Sent mails are kept this long after sending for an address with no account any more (delivery questions), then deleted. */
export const SENT_MAIL_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionAction = 'warn' | 'erase' | 'id_media' | 'lost' | 'retained_record';

/** One line of the report: one application (account) or kept record, what goes and why. */
export interface RetentionLine {
  email: string;
  action: RetentionAction;
  /** What goes (or would go), in the operator's words. */
  goes: string[];
  /** What an erasure keeps apart, as the law requires (erase only). */
  kept: { kind: string; keep_until: string | null }[];
  why: string;
  /** The action failed (logged; the next run tries again). */
  failed?: boolean;
}

export interface RetentionCounts {
  warned: number;
  erased: number;
  id_media: number;
  lost: number;
  retained_records: number;
  mails_deleted: number;
  files_deleted: number;
  failed: number;
}

export interface RetentionReport {
  /** ISO date-time the periods were measured against. */
  as_of: string;
  dry_run: boolean;
  /** The run was stopped (the app closing) before it was done. */
  stopped: boolean;
  lines: RetentionLine[];
  counts: RetentionCounts;
}

export interface RetentionOptions {
  asOf: Date;
  dryRun: boolean;
  /** Aborted: the run stops between two accounts (the app is closing). */
  signal?: AbortSignal;
}

export const day = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
export const latest = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);
export const toDate = (value: unknown): Date => new Date(value as string);

/**
 * The applicant's last action, to the millisecond (a JavaScript date holds no more: the notice that
 * stores it must compare equal). See rule 1 above for what counts.
 */
export const lastActionSql = sql`date_trunc('milliseconds', greatest(${users.createdAt},
  max(${tokens.createdAt}) filter (where ${tokens.purpose} <> 'password_reset'),
  max(${tokens.lastUsedAt}), max(${tokens.usedAt})))`;

export interface Account {
  id: number;
  email: string;
  createdAt: Date;
  dashboardRedirect: boolean;
  lastActionAt: Date;
}

/** Accounts whose last action is before `before` (all of them without), with it; or only `userId`'s. */
export async function accounts(db: Db, options: { before?: Date; userId?: number }): Promise<Account[]> {
  return db
    .select({
      id: users.id,
      email: users.email,
      createdAt: sql<Date>`date_trunc('milliseconds', ${users.createdAt})`.mapWith(toDate),
      dashboardRedirect: users.dashboardRedirect,
      lastActionAt: sql<Date>`${lastActionSql}`.mapWith(toDate),
    })
    .from(users)
    .leftJoin(tokens, eq(tokens.userId, users.id))
    .where(options.userId === undefined ? undefined : eq(users.id, options.userId))
    .groupBy(users.id)
    .having(options.before ? sql`${lastActionSql} < ${options.before.toISOString()}::timestamptz` : undefined)
    .orderBy(users.id);
}

export type Kind = 'unfinished' | 'lost' | 'finished';

/** Rule 1 or 3 or neither, from the account and its requests' state (no state: no request yet, unfinished). */
export function kindOf(account: Pick<Account, 'dashboardRedirect'>, state: RequestRetentionState | undefined): Kind {
  if (account.dashboardRedirect || state?.finished) return 'finished';
  if (!state || state.inProgress) return 'unfinished';
  return state.lost ? 'lost' : 'unfinished';
}

export async function statesOf(db: Db, userIds: number[]): Promise<Map<number, RequestRetentionState>> {
  const states = new Map<number, RequestRetentionState>();
  for (let i = 0; i < userIds.length; i += 1000) {
    for (const state of await requestRetentionStates(db, userIds.slice(i, i + 1000))) states.set(state.userId, state);
  }
  return states;
}

/** The notices (warnings sent, reductions done) of these users, by user. */
export async function noticesOf(db: Db, userIds: number[]) {
  const byUser = new Map<number, (typeof retentionNotices.$inferSelect)[]>();
  for (let i = 0; i < userIds.length; i += 1000) {
    const rows = await db
      .select()
      .from(retentionNotices)
      .where(inArray(retentionNotices.userId, userIds.slice(i, i + 1000)));
    for (const row of rows) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row]);
  }
  return byUser;
}

export const noticeFor = (notices: (typeof retentionNotices.$inferSelect)[] | undefined, kind: string, lastActionAt: Date) =>
  notices?.find((n) => n.kind === kind && n.lastActionAt.getTime() === lastActionAt.getTime());

/** The account as it is now, if it still is what the run decided on (same last action, same kind): else null, nothing is done. */
export async function stillSo(db: Db, account: Account, kind: Kind): Promise<Account | null> {
  const [now] = await accounts(db, { userId: account.id });
  if (!now || now.lastActionAt.getTime() !== account.lastActionAt.getTime()) return null;
  const [state] = await requestRetentionStates(db, [account.id]);
  return kindOf(now, state) === kind ? now : null;
}

export class Run {
  readonly lines: RetentionLine[] = [];
  readonly counts: RetentionCounts = { warned: 0, erased: 0, id_media: 0, lost: 0, retained_records: 0, mails_deleted: 0, files_deleted: 0, failed: 0 };
  stopped = false;

  constructor(
    readonly app: FastifyInstance,
    readonly options: RetentionOptions,
  ) {}

  get db() {
    return this.app.db;
  }
  get config() {
    return this.app.config.retention;
  }
  get asOf() {
    return this.options.asOf;
  }
  get dry() {
    return this.options.dryRun;
  }

  aborted(): boolean {
    if (this.options.signal?.aborted) this.stopped = true;
    return this.stopped;
  }

  /** Runs one account's action; a failure is logged, counted and reported, and the run goes on. */
  async act(line: RetentionLine, userId: number | null, action: () => Promise<boolean>): Promise<void> {
    try {
      if (await action()) this.lines.push(line);
    } catch (error) {
      this.app.log.error({ err: error, userId, action: line.action }, 'retention: an action failed; the next run tries again');
      this.counts.failed += 1;
      this.lines.push({ ...line, failed: true });
    }
  }
}
