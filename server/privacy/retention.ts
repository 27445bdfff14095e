import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { auditLog, consents, files, identitySessions, idvSimulatorSessions, mailingAddresses, outbox, payments, retentionNotices, timelineItems, tokens, userMeta, users } from '../db/schema';
import { forgetProviderSessions } from '../identity/service';
import { retentionWarningMail } from '../mail/templates';
import { userLanguage } from '../lib/users';
import { emptyLostRequests } from '../registration/store';
import { describeErasure, eraseAccount } from './erase';
import { deleteQueuedFiles, queueFileDeletions } from './file-deletions';
import { cleanUp, identityMedia } from './retention-cleanup';
import { accounts, addDays, day, kindOf, latest, noticeFor, noticesOf, Run, statesOf, stillSo, type Account, type RetentionLine, type RetentionOptions, type RetentionReport } from './retention-run';

export { SENT_MAIL_DAYS, type RetentionAction, type RetentionCounts, type RetentionLine, type RetentionOptions, type RetentionReport } from './retention-run';

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
