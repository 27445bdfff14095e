import { and, count, eq, inArray, isNotNull, isNull, lt, ne, notExists, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import {
  auditLog,
  consents,
  fileDeletions,
  files,
  identitySessions,
  identityUploads,
  idvSimulatorSessions,
  mailingAddresses,
  outbox,
  payments,
  retainedRecords,
  retentionNotices,
  timelineItems,
  tokens,
  userMeta,
  users,
} from '../db/schema';
import { forgetProviderSessions } from '../identity/service';
import { retentionWarningMail } from '../mail/templates';
import { userLanguage } from '../lib/users';
import { emptyLostRequests, requestRetentionStates, type RequestRetentionState } from '../registration/store';
import { describeErasure, eraseAccount } from './erase';
import { deleteQueuedFiles, queueFileDeletions } from './file-deletions';

/**
 * The retention job (issue 32, GDPR art. 5(1)(e) "storage limitation"): what is past its period
 * (server/config.ts `retention`, the RETENTION_* variables) goes, everything measured against
 * `asOf` (now, for the scheduled run; retention-schedule.ts runs it once a day across instances):
 *
 * 1. **Unfinished applications.** An account whose requests are all still in the wizard (or that
 *    has none) and whose applicant did nothing for `unfinishedDays` is erased for good
 *    (`eraseAccount`, by 'retention'). The applicant's last action is the latest of the account's
 *    creation and its tokens: sign-ins, use of the app (an access token's `last_used_at`), links
 *    asked for and used; not a request's last write, which system jobs also make, and not a
 *    password-reset link asked for (anyone who knows the address can ask one; using it counts).
 *    `warningDays` before, a warning mail goes (once per period of inactivity: a `retention_notices`
 *    row per user and last action), and the erasure never comes sooner than `warningDays` after
 *    that warning, nor in the run that sent it: if the job did not run for a while, the applicant
 *    still has the whole warning period. Signing in moves the last action: the cycle restarts.
 * 2. **Identity photos.** `idMediaDays` after the dossier ended (a `finalized` or `rejected`
 *    timeline item, or the "Am PFA" flow completed: handed over to the dashboard), the photos of
 *    the document and the selfie go (their `files` rows, their bytes, the simulator's names of
 *    them, the real provider's session and media); the session's decision and `person` stay
 *    (`identity_sessions.media_erased_at` says when).
 * 3. **Lost applications.** An account whose requests are all lost, untouched for `lostDays`, keeps
 *    only what signing in again and the lost reason need (the e-mail, the password hash, the
 *    requests' status and lost reason) and a marketing consent still given (the e-mail is kept to
 *    write when the product can serve them); the rest goes.
 * 4. Every run: the legally kept records past their `keep_until` (and their files), sent mails older
 *    than `SENT_MAIL_DAYS` to addresses with no account any more, and the stored files whose
 *    deletion failed before (`file_deletions`).
 *
 * An account past the wizard (a dossier sent, paid, finalized, rejected, or handed over) is never
 * erased by the job: only rule 2 applies to it, and rule 4 to what its erasure kept.
 *
 * A dry run reads the same and writes nothing: its report says what would go and why. Each
 * account is acted on in its own transaction, after its state is read again; one that fails is
 * logged (by id, no personal data), counted and tried again at the next run.
 */

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

const day = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
const latest = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);
const toDate = (value: unknown): Date => new Date(value as string);

/**
 * The applicant's last action, to the millisecond (a JavaScript date holds no more: the notice that
 * stores it must compare equal). See rule 1 above for what counts.
 */
const lastActionSql = sql`date_trunc('milliseconds', greatest(${users.createdAt},
  max(${tokens.createdAt}) filter (where ${tokens.purpose} <> 'password_reset'),
  max(${tokens.lastUsedAt}), max(${tokens.usedAt})))`;

interface Account {
  id: number;
  email: string;
  createdAt: Date;
  dashboardRedirect: boolean;
  lastActionAt: Date;
}

/** Accounts whose last action is before `before` (all of them without), with it; or only `userId`'s. */
async function accounts(db: Db, options: { before?: Date; userId?: number }): Promise<Account[]> {
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

type Kind = 'unfinished' | 'lost' | 'finished';

/** Rule 1 or 3 or neither, from the account and its requests' state (no state: no request yet, unfinished). */
function kindOf(account: Pick<Account, 'dashboardRedirect'>, state: RequestRetentionState | undefined): Kind {
  if (account.dashboardRedirect || state?.finished) return 'finished';
  if (!state || state.inProgress) return 'unfinished';
  return state.lost ? 'lost' : 'unfinished';
}

async function statesOf(db: Db, userIds: number[]): Promise<Map<number, RequestRetentionState>> {
  const states = new Map<number, RequestRetentionState>();
  for (let i = 0; i < userIds.length; i += 1000) {
    for (const state of await requestRetentionStates(db, userIds.slice(i, i + 1000))) states.set(state.userId, state);
  }
  return states;
}

/** The notices (warnings sent, reductions done) of these users, by user. */
async function noticesOf(db: Db, userIds: number[]) {
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

const noticeFor = (notices: (typeof retentionNotices.$inferSelect)[] | undefined, kind: string, lastActionAt: Date) =>
  notices?.find((n) => n.kind === kind && n.lastActionAt.getTime() === lastActionAt.getTime());

/** The account as it is now, if it still is what the run decided on (same last action, same kind): else null, nothing is done. */
async function stillSo(db: Db, account: Account, kind: Kind): Promise<Account | null> {
  const [now] = await accounts(db, { userId: account.id });
  if (!now || now.lastActionAt.getTime() !== account.lastActionAt.getTime()) return null;
  const [state] = await requestRetentionStates(db, [account.id]);
  return kindOf(now, state) === kind ? now : null;
}

class Run {
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

/** Runs the retention rules (see above) as of `asOf`; with `dryRun`, changes nothing and reports what would go. */
export async function runRetention(app: FastifyInstance, options: RetentionOptions): Promise<RetentionReport> {
  const run = new Run(app, options);
  const { unfinishedDays, warningDays, lostDays } = app.config.retention;
  // Only accounts idle long enough for a warning or a reduction are read.
  const idleFor = Math.min(Math.max(unfinishedDays - warningDays, 0), lostDays);
  const idle = await accounts(app.db, { before: addDays(options.asOf, -idleFor) });
  const ids = idle.map((a) => a.id);
  const states = await statesOf(app.db, ids);
  const notices = await noticesOf(app.db, ids);
  for (const account of idle) {
    if (run.aborted()) break;
    const kind = kindOf(account, states.get(account.id));
    if (kind === 'unfinished') await unfinished(run, account, notices.get(account.id));
    else if (kind === 'lost') await lost(run, account, notices.get(account.id));
  }
  if (!run.aborted()) await identityMedia(run);
  if (!run.aborted()) await cleanUp(run);
  return { as_of: options.asOf.toISOString(), dry_run: options.dryRun, stopped: run.stopped, lines: run.lines, counts: run.counts };
}

// ---------------------------------------------------------------- 1. unfinished applications

async function unfinished(run: Run, account: Account, notices: (typeof retentionNotices.$inferSelect)[] | undefined): Promise<void> {
  const { unfinishedDays, warningDays } = run.config;
  const deadline = addDays(account.lastActionAt, unfinishedDays);
  if (run.asOf < addDays(deadline, -warningDays)) return;
  const idleSince = `nicio acțiune a solicitantului din ${day(account.lastActionAt)} (cerere neterminată; termen: ${unfinishedDays} de zile)`;
  const warning = noticeFor(notices, 'unfinished', account.lastActionAt);

  if (!warning) {
    const eraseAfter = latest(deadline, addDays(run.asOf, warningDays));
    const line: RetentionLine = { email: account.email, action: 'warn', goes: [], kept: [], why: `${idleSince}; avertizare prin e-mail, ștergerea după ${day(eraseAfter)}` };
    await run.act(line, account.id, async () => {
      const sent = run.dry || ((await stillSo(run.db, account, 'unfinished')) !== null && (await warn(run, account, eraseAfter)));
      if (sent) run.counts.warned += 1;
      return sent;
    });
    return;
  }

  // Never sooner than the warning period after the warning, whenever that was sent.
  const eraseOn = latest(deadline, addDays(warning.sentAt, warningDays));
  if (run.asOf < eraseOn) return;
  const line: RetentionLine = { email: account.email, action: 'erase', goes: [], kept: [], why: `${idleSince}; avertizat pe ${day(warning.sentAt)}` };
  await run.act(line, account.id, async () => {
    if (run.dry) {
      const plan = await describeErasure(run.db, account.id, run.app.config, run.asOf);
      if (!plan) return false;
      Object.assign(line, { goes: plan.goes, kept: plan.kept.map((k) => ({ kind: k.kind, keep_until: k.keep_until })) });
      run.counts.erased += 1;
      return true;
    }
    if (!(await stillSo(run.db, account, 'unfinished'))) return false;
    const erased = await eraseAccount(run.app, account.id, { by: 'retention', now: run.asOf });
    if (!erased) return false;
    Object.assign(line, { goes: erased.goes, kept: erased.kept.map((k) => ({ kind: k.kind, keep_until: k.keep_until })) });
    run.counts.erased += 1;
    run.counts.files_deleted += erased.filesDeleted;
    return true;
  });
}

/** The warning: its notice and its mail in one transaction; a notice already there (another run) sends nothing. */
async function warn(run: Run, account: Account, eraseAfter: Date): Promise<boolean> {
  const { app } = run;
  const language = await userLanguage(app.db, account.id);
  const links = { login: `${app.config.publicUrl}/login`, data: `${app.config.publicUrl}/contul-meu/date` };
  const sent = await app.db.transaction(async (tx) => {
    const [notice] = await tx
      .insert(retentionNotices)
      .values({ userId: account.id, kind: 'unfinished', lastActionAt: account.lastActionAt, sentAt: run.asOf })
      .onConflictDoNothing()
      .returning({ id: retentionNotices.id });
    if (!notice) return false;
    await app.mailer.queue(tx as unknown as Db, retentionWarningMail(account.email, app.config.productName, eraseAfter, links, language));
    return true;
  });
  if (sent) app.mailer.wake();
  return sent;
}

// ---------------------------------------------------------------- 3. lost applications

const LOST_GOES = [
  'telefonul, datele cererii (formular, profil, istoric), fișierele, verificările identității, adresa de corespondență',
  'sesiunile și linkurile, informațiile de sursă (cookie-uri), e-mailurile trimise',
];

async function lost(run: Run, account: Account, notices: (typeof retentionNotices.$inferSelect)[] | undefined): Promise<void> {
  const { lostDays } = run.config;
  if (run.asOf < addDays(account.lastActionAt, lostDays)) return;
  // Already reduced, and not touched since (the reduction's notice counts from the account's creation: its tokens are gone).
  if (noticeFor(notices, 'lost', account.lastActionAt)) return;
  const line: RetentionLine = {
    email: account.email,
    action: 'lost',
    goes: LOST_GOES,
    kept: [],
    why: `cerere abandonată (lost), nicio acțiune a solicitantului din ${day(account.lastActionAt)} (termen: ${lostDays} de zile); rămân doar e-mailul, parola și motivul`,
  };
  await run.act(line, account.id, async () => {
    if (run.dry) {
      run.counts.lost += 1;
      return true;
    }
    const now = await stillSo(run.db, account, 'lost');
    if (!now) return false;
    const done = await reduceLost(run, now);
    if (done) run.counts.lost += 1;
    return done;
  });
}

/** Thrown inside the reduction's transaction to roll it back: the applicant came back meanwhile. */
class CameBack extends Error {}

async function reduceLost(run: Run, account: Account): Promise<boolean> {
  const { app } = run;
  const sessions = await app.db
    .select({ provider: identitySessions.provider, sessionId: identitySessions.sessionId })
    .from(identitySessions)
    .where(eq(identitySessions.userId, account.id));
  let keys: string[] = [];
  try {
    await app.db.transaction(async (tx) => {
      const requestIds = await emptyLostRequests(tx, account.id, (type) => app.flows.byType[type as 1 | 2]?.steps[0]?.id);
      if (!requestIds) throw new CameBack();
      const removed = await tx.delete(files).where(eq(files.userId, account.id)).returning({ storageKey: files.storageKey });
      keys = removed.map((f) => f.storageKey);
      await queueFileDeletions(tx, keys);
      await tx.delete(identitySessions).where(eq(identitySessions.userId, account.id));
      const simulated = sessions.filter((s) => s.provider === 'simulator').map((s) => s.sessionId);
      if (simulated.length) await tx.delete(idvSimulatorSessions).where(inArray(idvSimulatorSessions.sessionId, simulated));
      await tx.delete(mailingAddresses).where(eq(mailingAddresses.userId, account.id));
      await tx.delete(userMeta).where(eq(userMeta.userId, account.id));
      await tx.delete(tokens).where(eq(tokens.userId, account.id));
      // A marketing consent withdrawn goes; the terms and a marketing consent still given stay with the account.
      await tx.delete(consents).where(and(eq(consents.userId, account.id), eq(consents.kind, 'marketing'), isNotNull(consents.withdrawnAt)));
      await tx.delete(outbox).where(and(eq(outbox.to, account.email), isNotNull(outbox.sentAt)));
      if (requestIds.length) {
        await tx.delete(timelineItems).where(inArray(timelineItems.requestId, requestIds));
        // Unpaid checkouts go; a paid one would be an accounting record (a lost request has none).
        await tx.delete(payments).where(and(inArray(payments.requestId, requestIds), ne(payments.status, 'paid')));
        await tx
          .update(auditLog)
          .set({ before: null, after: null })
          .where(inArray(auditLog.requestId, requestIds));
      }
      await tx.update(users).set({ phone: '', referralCode: null }).where(eq(users.id, account.id));
      // Done for this period of inactivity: with the tokens gone, the last action is the account's creation.
      await tx.delete(retentionNotices).where(eq(retentionNotices.userId, account.id));
      await tx.insert(retentionNotices).values({ userId: account.id, kind: 'lost', lastActionAt: account.createdAt, sentAt: run.asOf });
    });
  } catch (error) {
    if (error instanceof CameBack) return false;
    throw error;
  }
  app.readCache?.dropUser(account.id);
  run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log, keys);
  await forgetProviderSessions(
    app,
    sessions.filter((s) => s.provider !== 'simulator'),
  );
  return true;
}

// ---------------------------------------------------------------- 2. identity photos

async function identityMedia(run: Run): Promise<void> {
  const { app } = run;
  const { idMediaDays } = run.config;
  // Sessions whose photos are still kept (a session deleted by the applicant lost its photos then).
  const open = await app.db
    .select({ id: identitySessions.id, userId: identitySessions.userId, provider: identitySessions.provider, sessionId: identitySessions.sessionId, email: users.email })
    .from(identitySessions)
    .innerJoin(users, eq(users.id, identitySessions.userId))
    .where(and(isNull(identitySessions.deletedAt), isNull(identitySessions.mediaErasedAt)))
    .orderBy(identitySessions.userId, identitySessions.id);
  const byUser = new Map<number, typeof open>();
  for (const session of open) byUser.set(session.userId, [...(byUser.get(session.userId) ?? []), session]);
  const states = await statesOf(app.db, [...byUser.keys()]);
  for (const [userId, sessions] of byUser) {
    if (run.aborted()) return;
    const endedAt = states.get(userId)?.endedAt;
    if (!endedAt || run.asOf < addDays(endedAt, idMediaDays)) continue;
    const uploads = await app.db
      .select({ fileId: files.id, storageKey: files.storageKey })
      .from(identityUploads)
      .innerJoin(files, eq(files.id, identityUploads.fileId))
      .where(
        inArray(
          identityUploads.identitySessionId,
          sessions.map((s) => s.id),
        ),
      );
    const line: RetentionLine = {
      email: sessions[0].email,
      action: 'id_media',
      goes: [`fotografiile actului de identitate și selfie-ul (${uploads.length} fișiere, ${sessions.length} ${sessions.length === 1 ? 'verificare' : 'verificări'})`],
      kept: [],
      why: `dosar încheiat (finalizat, respins sau predat) pe ${day(endedAt)}, de peste ${idMediaDays} de zile; rămân decizia verificării și datele citite din act`,
    };
    await run.act(line, userId, async () => {
      if (!run.dry) await eraseIdentityMedia(run, sessions, uploads);
      run.counts.id_media += 1;
      return true;
    });
  }
}

async function eraseIdentityMedia(
  run: Run,
  sessions: { id: number; userId: number; provider: string; sessionId: string }[],
  uploads: { fileId: number; storageKey: string }[],
): Promise<void> {
  const { app } = run;
  const keys = uploads.map((u) => u.storageKey);
  await app.db.transaction(async (tx) => {
    // The uploads' rows go with their files (cascade); the sessions stay, marked.
    if (uploads.length) {
      await tx.delete(files).where(
        inArray(
          files.id,
          uploads.map((u) => u.fileId),
        ),
      );
    }
    await queueFileDeletions(tx, keys);
    await tx
      .update(identitySessions)
      .set({ mediaErasedAt: run.asOf })
      .where(
        and(
          inArray(
            identitySessions.id,
            sessions.map((s) => s.id),
          ),
          isNull(identitySessions.mediaErasedAt),
        ),
      );
    // The simulator keeps only the photos' names: they go too (its decision was taken and copied).
    const simulated = sessions.filter((s) => s.provider === 'simulator').map((s) => s.sessionId);
    if (simulated.length) await tx.update(idvSimulatorSessions).set({ media: [] }).where(inArray(idvSimulatorSessions.sessionId, simulated));
  });
  app.readCache?.dropUser(sessions[0].userId);
  run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log, keys);
  // The real provider keeps the session's photos: asked to delete the session (best effort, logged).
  await forgetProviderSessions(
    app,
    sessions.filter((s) => s.provider !== 'simulator'),
  );
}

// ---------------------------------------------------------------- 4. every run

const RETAINED_NAMES: Record<string, string> = { payment: 'evidența unei plăți', contract: 'contractul de asistență juridică semnat' };

async function cleanUp(run: Run): Promise<void> {
  const { app } = run;
  const today = day(run.asOf);
  const expired = await app.db.select().from(retainedRecords).where(lt(retainedRecords.keepUntil, today)).orderBy(retainedRecords.id);
  for (const record of expired) {
    if (run.aborted()) return;
    const line: RetentionLine = {
      email: record.subject,
      action: 'retained_record',
      goes: [`${RETAINED_NAMES[record.kind] ?? record.kind}${record.storageKey ? ' (cu fișierul ei)' : ''}`],
      kept: [],
      why: `păstrat după ștergerea contului până la ${record.keepUntil}, cât cere legea`,
    };
    await run.act(line, null, async () => {
      if (!run.dry) {
        const keys = record.storageKey ? [record.storageKey] : [];
        const gone = await app.db.transaction(async (tx) => {
          const deleted = await tx.delete(retainedRecords).where(eq(retainedRecords.id, record.id)).returning({ id: retainedRecords.id });
          if (deleted.length) await queueFileDeletions(tx, keys);
          return deleted.length > 0;
        });
        if (!gone) return false;
        run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log, keys);
      }
      run.counts.retained_records += 1;
      return true;
    });
  }

  // Sent mails of addresses that have no account any more (erased, or never finished registering).
  const oldMail = and(
    isNotNull(outbox.sentAt),
    lt(outbox.sentAt, addDays(run.asOf, -SENT_MAIL_DAYS)),
    notExists(app.db.select({ one: sql`1` }).from(users).where(eq(users.email, outbox.to))),
  );
  if (run.dry) {
    const [row] = await app.db.select({ n: count() }).from(outbox).where(oldMail);
    run.counts.mails_deleted += row?.n ?? 0;
    const [queued] = await app.db.select({ n: count() }).from(fileDeletions);
    run.counts.files_deleted += queued?.n ?? 0;
    return;
  }
  const mails = await app.db.delete(outbox).where(oldMail).returning({ id: outbox.id });
  run.counts.mails_deleted += mails.length;
  // What an earlier deletion could not remove from the storage.
  run.counts.files_deleted += await deleteQueuedFiles(app.db, app.storage, app.log);
}
