import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';
import type { Db } from '../db';
import { auditLog, files, identitySessions, idvSimulatorSessions, outbox, payments, requestDocuments, retainedRecords, timelineItems, users } from '../db/schema';
import { forgetProviderSessions } from '../identity/service';
import { accountErasedMail, type ErasureKept } from '../mail/templates';
import { applicantName } from '../registration/model';
import { requestsOfUser } from '../registration/store';
import { userLanguage } from '../lib/users';
import { recordAudit } from '../staff/audit';
import { deleteQueuedFiles, queueFileDeletions } from './file-deletions';
import { HttpError } from '../lib/http-errors';
import type { AuditAction } from '../../src/core/audit';

/** Who asked for an erasure: the applicant on "Datele tale", an operator for a written request, the retention job. */
export type ErasureBy = 'applicant' | 'operator' | 'retention';

/** The audit log's action of an erasure (its entry names no one: the account is gone; `after` says who asked and what was kept). */
export const ERASURE_ACTION = 'account.erased' satisfies AuditAction;

/** A record the law makes us keep after the erasure, as the page and the mail list it. */
export interface KeptRecord {
  /** payment: the payment records (accounting law); contract: the signed legal-assistance contract; trade_register: a dossier filed with the registry (kept there, not by us). */
  kind: 'payment' | 'contract' | 'trade_register';
  count: number;
  /** YYYY-MM-DD; null for what the trade register keeps (not ours to delete). */
  keep_until: string | null;
}

export interface ErasurePlan {
  userId: number;
  email: string;
  /** What goes, in the operator's words (one item per category with its count). */
  goes: string[];
  kept: KeptRecord[];
}

export interface ErasureResult extends ErasurePlan {
  /** Stored files deleted now (any left over are deleted by the retention job). */
  filesDeleted: number;
}

type UserRow = typeof users.$inferSelect;
type RequestRow = Awaited<ReturnType<typeof requestsOfUser>>[number];

const day = (date: Date) => date.toISOString().slice(0, 10);

function addYears(date: Date, years: number): Date {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + years);
  return next;
}

/** Accounting documents are kept N years from the end of the financial year they belong to (Legea contabilității nr. 82/1991, art. 25). */
function accountingKeepUntil(paidAt: Date, years: number): string {
  return `${paidAt.getUTCFullYear() + years}-12-31`;
}

/** Everything of one user the erasure reads, once. */
async function gather(db: Db, user: UserRow) {
  const requests = await requestsOfUser(db, user.id);
  const requestIds = requests.map((r) => r.id);
  const paid = requestIds.length
    ? await db
        .select()
        .from(payments)
        .where(and(inArray(payments.requestId, requestIds), eq(payments.status, 'paid')))
    : [];
  const contracts = requestIds.length
    ? await db
        .select({ requestId: requestDocuments.requestId, kind: requestDocuments.kind, file: files })
        .from(requestDocuments)
        .innerJoin(files, eq(files.id, requestDocuments.fileId))
        .where(and(inArray(requestDocuments.requestId, requestIds), eq(requestDocuments.kind, 'legal_assistance_contract')))
    : [];
  // A dossier filed with the trade register: the operator recorded its submission, or it was finalized or rejected there.
  const filed = requestIds.length
    ? await db
        .selectDistinct({ requestId: timelineItems.requestId })
        .from(timelineItems)
        .where(and(inArray(timelineItems.requestId, requestIds), inArray(timelineItems.type, ['submitted', 'finalized', 'rejected', 'name_reservation'])))
    : [];
  const fileRows = await db.select({ id: files.id, storageKey: files.storageKey }).from(files).where(eq(files.userId, user.id));
  const sessions = await db
    .select({ provider: identitySessions.provider, sessionId: identitySessions.sessionId })
    .from(identitySessions)
    .where(eq(identitySessions.userId, user.id));
  const [mails] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(outbox)
    .where(eq(outbox.to, user.email));
  return { requests, requestIds, paid, contracts, filed: new Set(filed.map((f) => f.requestId)), fileRows, sessions, mails: mails?.count ?? 0 };
}

type Gathered = Awaited<ReturnType<typeof gather>>;

function keptOf(found: Gathered, config: Pick<AppConfig, 'retention'>, now: Date): KeptRecord[] {
  const kept: KeptRecord[] = [];
  if (found.paid.length) {
    const until = found.paid.map((p) => accountingKeepUntil(p.paidAt ?? p.createdAt, config.retention.accountingYears)).sort().at(-1)!;
    kept.push({ kind: 'payment', count: found.paid.length, keep_until: until });
  }
  if (found.contracts.length) kept.push({ kind: 'contract', count: found.contracts.length, keep_until: day(addYears(now, config.retention.contractYears)) });
  if (found.filed.size) kept.push({ kind: 'trade_register', count: found.filed.size, keep_until: null });
  return kept;
}

function goesOf(found: Gathered): string[] {
  const goes = ['contul (e-mail, telefon, parolă, sesiuni, consimțăminte)'];
  if (found.requests.length) goes.push(`cererile (${found.requests.length}) cu datele, adresele și istoricul lor`);
  if (found.fileRows.length) goes.push(`fișierele (${found.fileRows.length}): fotografii ale actului, selfie, documente, semnătură`);
  if (found.sessions.length) goes.push(`verificările identității (${found.sessions.length})`);
  if (found.mails) goes.push(`e-mailurile trimise sau în așteptare (${found.mails})`);
  return goes;
}

/** What erasing the user would remove and keep (the "Datele tale" page, the operator's dry run); changes nothing. */
export async function describeErasure(db: Db, userId: number, config: Pick<AppConfig, 'retention'>, now = new Date()): Promise<ErasurePlan | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const found = await gather(db, user);
  return { userId, email: user.email, goes: goesOf(found), kept: keptOf(found, config, now) };
}

/** The minimal payment record the accounting law needs: who paid, what, when, and the provider's reference. */
function paymentRecord(payment: Gathered['paid'][number], request: RequestRow | undefined, email: string) {
  return {
    payment_id: payment.id,
    request_id: payment.requestId,
    provider: payment.provider,
    provider_subscription_id: payment.providerSubscriptionId,
    amount_bani: payment.amountBani,
    currency: payment.currency,
    paid_at: (payment.paidAt ?? payment.createdAt).toISOString(),
    payer: { name: request ? applicantName(request.profile) : null, email },
  };
}

/**
 * Erases an account for good (issue 32, GDPR art. 17): in one transaction the records the law
 * makes us keep are copied apart (`retained_records`: paid payments, the signed legal-assistance
 * contract with its PDF), the user's stored files are queued for deletion, the audit log's
 * before/after values about them are emptied, their mails (pending and sent) are dropped, the
 * identity simulator's sessions deleted, and the user's row deleted (first, outside it, the
 * provider ends the user's subscriptions: `endSubscriptions`), which removes by cascade the
 * requests, tokens (every session and link), files' rows, identity sessions, addresses, timeline,
 * payments, consents. One audit entry records the erasure (who asked, what was kept; no personal
 * data) and the confirmation mail is queued. After the commit the files' bytes are deleted from
 * the storage (local or S3), the identity provider is asked to delete its sessions, and the
 * in-memory read cache drops the user (other instances by the database's change feed).
 *
 * Returns null when the user no longer exists (a second erasure changes nothing).
 */
export async function eraseAccount(
  app: FastifyInstance,
  userId: number,
  options: { by: ErasureBy; actor?: string | null; staffUserId?: number | null; now?: Date },
): Promise<ErasureResult | null> {
  const now = options.now ?? new Date();
  const [user] = await app.db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const language = await userLanguage(app.db, user.id);
  const found = await gather(app.db, user);
  const kept = keptOf(found, app.config, now);
  const keptKeys = new Set(found.contracts.map((c) => c.file.storageKey));
  let deletedKeys: string[] = [];
  const requestsById = new Map(found.requests.map((r) => [r.id, r]));
  const privacyUrl = /^https?:\/\//i.test(app.config.privacyUrl) ? app.config.privacyUrl : `${app.config.publicUrl}${app.config.privacyUrl}`;

  await endSubscriptions(app, found.paid);

  const erased = await app.db.transaction(async (tx) => {
    // Locked until the commit: a second erasure waits and then finds no row; an upload waits and then finds no user.
    const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    if (!locked) return false;
    const records = [
      ...found.paid.map((payment) => ({
        kind: 'payment' as const,
        subject: user.email,
        data: paymentRecord(payment, requestsById.get(payment.requestId), user.email),
        keepUntil: accountingKeepUntil(payment.paidAt ?? payment.createdAt, app.config.retention.accountingYears),
      })),
      ...found.contracts.map((contract) => ({
        kind: 'contract' as const,
        subject: user.email,
        data: {
          request_id: contract.requestId,
          signed_at: contract.file.createdAt.toISOString(),
          name: applicantName(requestsById.get(contract.requestId)?.profile ?? {}),
          email: user.email,
          file_name: contract.file.originalName,
        },
        storageKey: contract.file.storageKey,
        contentType: contract.file.contentType,
        keepUntil: day(addYears(now, app.config.retention.contractYears)),
      })),
    ];
    if (records.length) await tx.insert(retainedRecords).values(records);
    // Read again in the transaction: a file uploaded since `gather` has its row deleted by the cascade too.
    const fileRows = await tx.select({ storageKey: files.storageKey }).from(files).where(eq(files.userId, user.id));
    deletedKeys = fileRows.map((f) => f.storageKey).filter((key) => !keptKeys.has(key));
    await queueFileDeletions(tx, deletedKeys);
    // The audit log keeps who did what and when about these dossiers, not the data itself.
    const aboutUser = [
      found.requestIds.length ? inArray(auditLog.requestId, found.requestIds) : undefined,
      sql`position(${user.email} in lower(coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, ''))) > 0`,
    ].filter((c) => c !== undefined);
    await tx
      .update(auditLog)
      .set({ before: null, after: null })
      .where(and(or(...aboutUser), or(sql`${auditLog.before} is not null`, sql`${auditLog.after} is not null`)));
    await tx.delete(outbox).where(eq(outbox.to, user.email));
    // The rows of the requests, tokens, files, sessions, addresses, timeline, payments, consents go with it (cascade).
    await tx.delete(users).where(eq(users.id, user.id));
    const simulated = found.sessions.filter((s) => s.provider === 'simulator').map((s) => s.sessionId);
    if (simulated.length) await tx.delete(idvSimulatorSessions).where(inArray(idvSimulatorSessions.sessionId, simulated));
    await recordAudit(tx, {
      staffUserId: options.staffUserId ?? null,
      actor: options.actor ?? null,
      action: ERASURE_ACTION,
      after: { by: options.by, kept: kept.map((k) => ({ kind: k.kind, count: k.count, keep_until: k.keep_until })) },
    });
    const mailKept: ErasureKept = {
      payments: kept.find((k) => k.kind === 'payment') ? { count: found.paid.length, until: kept.find((k) => k.kind === 'payment')!.keep_until! } : null,
      contractUntil: kept.find((k) => k.kind === 'contract')?.keep_until ?? null,
      tradeRegister: kept.some((k) => k.kind === 'trade_register'),
    };
    await app.mailer.queue(tx, accountErasedMail(
        user.email,
        app.config.productName,
        options.by === 'retention' ? { by: 'retention', days: app.config.retention.unfinishedDays } : { by: options.by },
        mailKept,
        privacyUrl,
        language,
      ));
    return true;
  });
  if (!erased) return null;

  app.mailer.wake();
  app.readCache?.dropUser(user.id);
  const filesDeleted = await deleteQueuedFiles(app.db, app.storage, app.log, deletedKeys);
  // The real provider keeps the session's media: asked to delete it (best effort, logged without personal data).
  await forgetProviderSessions(
    app,
    found.sessions.filter((s) => s.provider !== 'simulator'),
  );
  return { userId: user.id, email: user.email, goes: goesOf(found), kept, filesDeleted };
}

/** Said when the payment provider cannot end a subscription: the account stays, nothing is erased (503). */
export const SUBSCRIPTION_NOT_ENDED =
  'Abonamentul tău nu a putut fi oprit acum, așa că nu am șters contul (nu vrem să fii facturat pentru un cont care nu mai există). Te rugăm să încerci din nou peste câteva minute.';

/**
 * Ends at the provider every subscription the user's paid checkouts opened, before anything is
 * erased: nobody is billed for an account that no longer exists. A provider that cannot be reached
 * stops the erasure (503, nothing changed); a subscription of a provider this instance no longer
 * has configured is logged for the operator (its id only).
 */
async function endSubscriptions(app: FastifyInstance, paid: Gathered['paid']): Promise<void> {
  for (const payment of paid) {
    if (!payment.providerSubscriptionId) continue;
    if (payment.provider !== app.payments.name) {
      app.log.error({ paymentId: payment.id, provider: payment.provider }, 'erasure: a subscription of a provider not configured here is left running; end it at the provider');
      continue;
    }
    try {
      await app.payments.cancelSubscription(payment.providerSubscriptionId);
    } catch (error) {
      app.log.warn({ err: error, paymentId: payment.id }, 'erasure: the subscription could not be ended; nothing was erased');
      throw new HttpError(503, SUBSCRIPTION_NOT_ENDED);
    }
  }
}

/** The user with this e-mail (lower-cased), for the operator's erasure of a written request. */
export async function userIdByEmail(db: Db, email: string): Promise<number | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()));
  return row?.id ?? null;
}
