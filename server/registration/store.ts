import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Flow } from '../../src/core/flow';
import type { Db } from '../db';
import { codesInCurrentRevision, correspondenceTargets, PREVIOUS_REVISION_IDS } from '../db/caen';
import { files, partners, payments, registrationRequests, timelineItems, tokens, users } from '../db/schema';
import { forbidden, HttpError } from '../lib/http-errors';
import { accessTokenParams, liveAccessToken, touchAccessToken, type UserRow } from '../lib/tokens';
import type { PartnerPrice, PartnerRow, RequestRow } from './model';
import { extrasSql, parseExtras, parsePrices, partnerPricesSql, requestExtras, signatureFileIdSql, type RequestExtras } from './request-extras';
import { signatureFileIdOf } from './signature';

/**
 * The request store: the ONLY module that reads or writes `registration_requests` (a test greps
 * the server for it). One concurrency rule everywhere, the **version check** (optimistic): every
 * write is `UPDATE … WHERE id = ? AND version = ?` that bumps the version, inside a transaction
 * with whatever else belongs to it (the user's stop_flow, a timeline item, a payment), so a lost
 * race writes nothing at all.
 *
 * Why a version check and not a row lock: a step submit does slow work between reading the
 * request and writing it (files to storage, the ANAF lookup, image re-encoding); a lock would be
 * held across all of it, and on the embedded PGlite (one connection) it would stop every other
 * user meanwhile. And the 409 of the step contract ("someone moved the request since you read
 * it") is exactly a failed version check.
 *
 * Two kinds of write:
 * - decisions on what the caller saw (move to the next step, save the overview, mark lost): a lost
 *   race answers `null` and the route answers 409 with the request as it now stands;
 * - merges that do not depend on what was read (profile fields from the identity decision or the
 *   home-address form, marking a payment paid): the store reads again and re-applies them on the
 *   newer version (a bounded number of times), still through the same version check.
 */

/** How often a merge is re-applied after losing a version check before it gives up (409). */
const MERGE_ATTEMPTS = 5;

export const CONFLICT_MESSAGE = 'Dosarul a fost modificat între timp. Încearcă din nou.';

/** What a write may change; the version and updated_at are the store's. */
export interface RequestChanges {
  step?: string;
  formData?: Record<string, unknown>;
  profile?: Record<string, unknown>;
  status?: string;
  lostReason?: string | null;
  paid?: boolean;
  paidAt?: Date | null;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

/** The one conditional write: only if nobody wrote the request since `row` was read. */
async function writeIfUnchanged(db: Executor, row: RequestRow, changes: RequestChanges): Promise<RequestRow | null> {
  const [updated] = await db
    .update(registrationRequests)
    .set({ ...changes, version: row.version + 1, updatedAt: new Date() })
    .where(and(eq(registrationRequests.id, row.id), eq(registrationRequests.version, row.version)))
    .returning();
  return updated ?? null;
}

async function byId(db: Executor, id: number): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
  return row;
}

/**
 * Re-applies `change(current)` on the newest version until its version check holds: for writes
 * whose outcome does not depend on what the caller had read. `null` from `change`: nothing to write.
 */
async function mergeInto(
  db: Executor,
  id: number,
  change: (current: RequestRow) => RequestChanges | null | Promise<RequestChanges | null>,
): Promise<RequestRow | null> {
  for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
    const current = await byId(db, id);
    if (!current) return null;
    const changes = await change(current);
    if (!changes) return current;
    const written = await writeIfUnchanged(db, current, changes);
    if (written) return written;
  }
  throw new HttpError(409, CONFLICT_MESSAGE);
}

// ---------------------------------------------------------------- reads

const userTypeIs = (userId: number, registrationType: number) =>
  and(eq(registrationRequests.userId, userId), eq(registrationRequests.registrationType, registrationType));

/** The user's request of a registration type, if any. */
export async function findRequest(db: Db, userId: number, registrationType: number): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(registrationRequests).where(userTypeIs(userId, registrationType));
  return row;
}

/**
 * The read of every API call, prepared once per database (issue 14: the query is not rebuilt by
 * Drizzle on each request, and PostgreSQL plans it once per connection).
 */
function prepareReads(db: Db) {
  const extras = extrasSql({
    id: sql`${registrationRequests.id}`,
    userId: sql`${registrationRequests.userId}`,
    partnerId: sql`${partners.id}`,
    signatureFileId: signatureFileIdSql(registrationRequests.formData),
  });
  const join = and(
    eq(registrationRequests.userId, sql.placeholder('userId')),
    eq(registrationRequests.registrationType, sql.placeholder('registrationType')),
  );
  const byPartner = eq(partners.id, sql.placeholder('partnerId'));
  // The partner's prices come with every read: the pricing step's rule checks the chosen one without a query.
  const prices = partnerPricesSql(partners.id);
  return {
    plain: db.select({ partner: partners, request: registrationRequests, prices }).from(partners).leftJoin(registrationRequests, join).where(byPartner).prepare('request_with_partner'),
    withExtras: db
      .select({ partner: partners, request: registrationRequests, prices, extras })
      .from(partners)
      .leftJoin(registrationRequests, join)
      .where(byPartner)
      .prepare('request_with_partner_extras'),
  };
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareReads>>();
function readStatements(db: Db) {
  let statements = prepared.get(db);
  if (!statements) prepared.set(db, (statements = prepareReads(db)));
  return statements;
}

/** The user's request in this flow, created at the flow's first step on first use. */
export async function openRequest(db: Db, user: UserRow, flow: Flow): Promise<RequestRow> {
  if (user.registrationType !== flow.registrationType) throw forbidden();
  const existing = await findRequest(db, user.id, flow.registrationType);
  if (existing) return existing;
  const [created] = await db
    .insert(registrationRequests)
    .values({ userId: user.id, registrationType: flow.registrationType, step: flow.steps[0].id })
    .onConflictDoNothing()
    .returning();
  // Another call created it at the same moment: that one is the request.
  return created ?? (await findRequest(db, user.id, flow.registrationType))!;
}

/**
 * The user's request in the flow with its partner: one query (two more the first time, when it is
 * created). `withExtras`: everything its answer carries besides the row (request-extras.ts) comes
 * in the same query, so reading a request is this one query (issue 14).
 */
export async function requestWithPartner(
  db: Db,
  user: UserRow,
  flow: Flow,
  options: { withExtras?: boolean } = {},
): Promise<{ request: RequestRow; partner: PartnerRow; prices: PartnerPrice[]; extras: RequestExtras | null }> {
  if (user.registrationType !== flow.registrationType) throw forbidden();
  const [found] = await readStatements(db)[options.withExtras ? 'withExtras' : 'plain'].execute({
    userId: user.id,
    registrationType: flow.registrationType,
    partnerId: user.partnerId,
  });
  const prices = parsePrices(found.prices);
  if (!found.request) return { partner: found.partner, prices, request: await openRequest(db, user, flow), extras: null };
  const row = found as typeof found & { extras?: unknown };
  return { partner: found.partner, prices, request: found.request, extras: options.withExtras ? parseExtras(row.extras) : null };
}

/**
 * The session check and the read of a registration call in one prepared statement (issue 14: one
 * round trip fewer on every call of the wizard): the live access token (`liveAccessToken`, the same
 * condition as `findAccessToken`), its user, the user's partner and the user's request of
 * `registrationType` (none yet, or the user is of the other flow: `request` is null), with
 * `withExtras` everything its answer carries (request-extras.ts).
 */
function prepareSignedInReads(db: Db) {
  const extras = extrasSql({
    id: sql`${registrationRequests.id}`,
    userId: sql`${registrationRequests.userId}`,
    partnerId: sql`${partners.id}`,
    signatureFileId: signatureFileIdSql(registrationRequests.formData),
  });
  const ofUser = and(eq(registrationRequests.userId, users.id), eq(registrationRequests.registrationType, sql.placeholder('registrationType')));
  const columns = { token: tokens, user: users, partner: partners, request: registrationRequests, prices: partnerPricesSql(partners.id) };
  return {
    plain: db
      .select(columns)
      .from(tokens)
      .innerJoin(users, eq(users.id, tokens.userId))
      .innerJoin(partners, eq(partners.id, users.partnerId))
      .leftJoin(registrationRequests, ofUser)
      .where(liveAccessToken())
      .prepare('signed_in_request'),
    withExtras: db
      .select({ ...columns, extras })
      .from(tokens)
      .innerJoin(users, eq(users.id, tokens.userId))
      .innerJoin(partners, eq(partners.id, users.partnerId))
      .leftJoin(registrationRequests, ofUser)
      .where(liveAccessToken())
      .prepare('signed_in_request_extras'),
  };
}

const preparedSignedIn = new WeakMap<Db, ReturnType<typeof prepareSignedInReads>>();

export interface SignedInRequest {
  token: typeof tokens.$inferSelect;
  user: UserRow;
  partner: PartnerRow;
  /** The partner's prices. */
  prices: PartnerPrice[];
  /** Null when the user has no request of that type yet (or is of the other flow). */
  request: RequestRow | null;
  extras: RequestExtras | null;
}

/**
 * A live access token's user with their request of `registrationType` and its partner (and
 * `withExtras`, what its answer carries), in one query; null when the token is not live (401).
 * Marks the token used, as `findAccessToken` does.
 */
export async function signedInRequest(
  db: Db,
  secret: string,
  idleMinutes: number,
  registrationType: number,
  options: { withExtras?: boolean } = {},
  now = new Date(),
): Promise<SignedInRequest | null> {
  let statements = preparedSignedIn.get(db);
  if (!statements) preparedSignedIn.set(db, (statements = prepareSignedInReads(db)));
  const params = { ...accessTokenParams(secret, idleMinutes, now), registrationType };
  const [found] = options.withExtras ? await statements.withExtras.execute(params) : await statements.plain.execute(params);
  if (!found) return null;
  await touchAccessToken(db, found.token, now);
  const extras = 'extras' in found && found.request ? parseExtras(found.extras) : null;
  return { token: found.token, user: found.user, partner: found.partner, prices: parsePrices(found.prices), request: found.request, extras };
}

/** The request of an id (operators), or undefined. */
export async function requestById(db: Db, id: number): Promise<RequestRow | undefined> {
  return byId(db, id);
}

/** The requests of the user with this e-mail (operators), the new-PFA request first. */
export async function requestsByEmail(db: Db, email: string): Promise<RequestRow[]> {
  const rows = await db
    .select({ request: registrationRequests })
    .from(registrationRequests)
    .innerJoin(users, eq(users.id, registrationRequests.userId))
    .where(eq(users.email, email))
    .orderBy(desc(registrationRequests.registrationType));
  return rows.map((r) => r.request);
}

/** What the onboarding state of a user is decided on: each of their requests' type, step, status and paid flag. */
/** Every request of a user, oldest first (the data export, issue 32). */
export async function requestsOfUser(db: Db, userId: number): Promise<RequestRow[]> {
  return db.select().from(registrationRequests).where(eq(registrationRequests.userId, userId)).orderBy(registrationRequests.id);
}

/** The ids of a user's requests, as a subquery (the access log's entries about them). */
export function requestIdsOfUser(db: Db, userId: number) {
  return db.select({ id: registrationRequests.id }).from(registrationRequests).where(eq(registrationRequests.userId, userId));
}

export async function requestStates(db: Db, userId: number) {
  return db
    .select({ type: registrationRequests.registrationType, step: registrationRequests.step, status: registrationRequests.status, paid: registrationRequests.paid, formData: registrationRequests.formData })
    .from(registrationRequests)
    .where(eq(registrationRequests.userId, userId));
}

/** Who a request belongs to, for a mail about it (the payment receipt): the applicant's address, the flow and the partner's name. */
export async function requestOwner(db: Db, requestId: number) {
  const [owner] = await db
    .select({ userId: users.id, email: users.email, registrationType: registrationRequests.registrationType, partner: partners.name })
    .from(registrationRequests)
    .innerJoin(users, eq(users.id, registrationRequests.userId))
    .innerJoin(partners, eq(partners.id, users.partnerId))
    .where(eq(registrationRequests.id, requestId));
  return owner;
}

/** A payment with its request (the built-in checkout's calls). */
export async function paymentWithRequest(db: Db, paymentId: string) {
  const [found] = await db
    .select({ payment: payments, request: registrationRequests })
    .from(payments)
    .innerJoin(registrationRequests, eq(registrationRequests.id, payments.requestId))
    .where(eq(payments.id, paymentId));
  return found;
}

const timelineCount = sql<number>`(select count(*) from ${timelineItems} where ${timelineItems.requestId} = ${registrationRequests.id})`.mapWith(Number);

const summaryColumns = {
  id: registrationRequests.id,
  userId: registrationRequests.userId,
  email: users.email,
  profile: registrationRequests.profile,
  registrationType: registrationRequests.registrationType,
  step: registrationRequests.step,
  status: registrationRequests.status,
  paid: registrationRequests.paid,
  createdAt: registrationRequests.createdAt,
  timelineItems: timelineCount,
};

/** Dossiers as operators list them (newest first), optionally those whose applicant's e-mail contains `term`. */
export async function dossierSummaries(db: Db, options: { term?: string; limit: number; id?: number }) {
  const { term, limit, id } = options;
  const where = id !== undefined ? eq(registrationRequests.id, id) : term ? ilike(users.email, `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined;
  return db
    .select(summaryColumns)
    .from(registrationRequests)
    .innerJoin(users, eq(users.id, registrationRequests.userId))
    .where(where)
    .orderBy(desc(registrationRequests.id))
    .limit(limit);
}

export type DossierSummaryRow = Awaited<ReturnType<typeof dossierSummaries>>[number];

/** What the operator console's list filters on (GET /api/staff/dossiers); every filter optional. */
export interface DossierFilters {
  /** One box: part of the e-mail, the name (either order), the CNP or the CUI. */
  search?: string;
  registrationType?: number;
  /** A step identifier (`requesting-company-step-3`). */
  step?: string;
  paid?: boolean;
  status?: string;
  /** Partner slug. */
  partner?: string;
  page: number;
  pageSize: number;
}

const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of dossiers for the operator console, newest first, with the total that match. */
export async function dossierPage(db: Db, filters: DossierFilters) {
  const conditions: SQL[] = [];
  const term = filters.search?.trim();
  if (term) {
    const like = likeTerm(term);
    const digits = term.replace(/\s+/g, '').replace(/^ro/i, '');
    conditions.push(
      or(
        ilike(users.email, like),
        sql`(coalesce(${registrationRequests.profile}->>'last_name', '') || ' ' || coalesce(${registrationRequests.profile}->>'first_name', '')) ilike ${like}`,
        sql`(coalesce(${registrationRequests.profile}->>'first_name', '') || ' ' || coalesce(${registrationRequests.profile}->>'last_name', '')) ilike ${like}`,
        ...(/^\d+$/.test(digits)
          ? [
              sql`${registrationRequests.profile}->>'personal_code' like ${likeTerm(digits)}`,
              sql`${registrationRequests.formData}->>'fiscal_code' like ${likeTerm(digits)}`,
            ]
          : []),
      ) as SQL,
    );
  }
  if (filters.registrationType !== undefined) conditions.push(eq(registrationRequests.registrationType, filters.registrationType));
  if (filters.step) conditions.push(eq(registrationRequests.step, filters.step));
  if (filters.paid !== undefined) conditions.push(eq(registrationRequests.paid, filters.paid));
  if (filters.status) conditions.push(eq(registrationRequests.status, filters.status));
  if (filters.partner) conditions.push(eq(partners.slug, filters.partner));
  const rows = await db
    .select({
      id: registrationRequests.id,
      userId: registrationRequests.userId,
      email: users.email,
      lastName: sql<string | null>`${registrationRequests.profile}->>'last_name'`,
      firstName: sql<string | null>`${registrationRequests.profile}->>'first_name'`,
      cnp: sql<string | null>`${registrationRequests.profile}->>'personal_code'`,
      cui: sql<string | null>`${registrationRequests.formData}->>'fiscal_code'`,
      registrationType: registrationRequests.registrationType,
      step: registrationRequests.step,
      paid: registrationRequests.paid,
      status: registrationRequests.status,
      partner: partners.slug,
      createdAt: registrationRequests.createdAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(registrationRequests)
    .innerJoin(users, eq(users.id, registrationRequests.userId))
    .innerJoin(partners, eq(partners.id, users.partnerId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(registrationRequests.id))
    .limit(filters.pageSize)
    .offset((filters.page - 1) * filters.pageSize);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && filters.page > 1) {
    // Past the last page: the total still counts what matches.
    const [counted] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(registrationRequests)
      .innerJoin(users, eq(users.id, registrationRequests.userId))
      .innerJoin(partners, eq(partners.id, users.partnerId))
      .where(conditions.length ? and(...conditions) : undefined);
    total = counted.n;
  }
  return { rows, total };
}

export type DossierPageRow = Awaited<ReturnType<typeof dossierPage>>['rows'][number];

/** A dossier for the console: the request, its applicant and partner; undefined when there is no such request. */
export async function dossierWithOwner(db: Db, id: number) {
  const [row] = await db
    .select({ request: registrationRequests, user: users, partner: partners })
    .from(registrationRequests)
    .innerJoin(users, eq(users.id, registrationRequests.userId))
    .innerJoin(partners, eq(partners.id, users.partnerId))
    .where(eq(registrationRequests.id, id));
  return row;
}

/** Every file of the dossier's applicant (photos, documents, signature, signed PDFs), oldest first. */
export async function applicantFiles(db: Db, userId: number) {
  return db
    .select({ id: files.id, name: files.originalName, contentType: files.contentType, size: files.size, createdAt: files.createdAt, storageKey: files.storageKey })
    .from(files)
    .where(eq(files.userId, userId))
    .orderBy(files.id);
}

/** What the retention job (server/privacy/retention.ts, issue 32) needs to know of a user's requests. */
export interface RequestRetentionState {
  userId: number;
  /**
   * Some request went past the wizard: sent (submitted), rejected, finalized, paid, or its flow
   * completed ("Am PFA" handed over to the dashboard, `form_data.flow_completed_at`).
   */
  finished: boolean;
  /** Some request is still in the wizard: in progress, not paid, its flow not completed. */
  inProgress: boolean;
  /** Some request is lost. */
  lost: boolean;
  /**
   * When the dossier ended, the latest over the user's requests: the latest `finalized` or `rejected`
   * timeline item (when it was recorded), else the flow's completion, else (a status set without an
   * item) the request's last write; null while none has ended.
   */
  endedAt: Date | null;
}

const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

/**
 * The retention state of the requests of `userIds` (all users with requests when omitted), one row
 * per user that has any (a user without a row has no request). Read only by the retention job.
 */
export async function requestRetentionStates(db: Db, userIds?: readonly number[]): Promise<RequestRetentionState[]> {
  if (userIds && !userIds.length) return [];
  const r = registrationRequests;
  const completed = sql`coalesce(${r.formData}->>'flow_completed_at', '') <> ''`;
  const ended = sql`coalesce(
      (select max(${timelineItems.createdAt}) from ${timelineItems} where ${timelineItems.requestId} = ${r.id} and ${timelineItems.type} in ('finalized', 'rejected')),
      case when ${r.formData}->>'flow_completed_at' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' then (${r.formData}->>'flow_completed_at')::timestamptz end,
      case when ${r.status} in ('finalized', 'rejected') then ${r.updatedAt} end)`;
  const rows = await db
    .select({
      userId: r.userId,
      finished: sql<boolean>`bool_or(${r.status} not in ('in_progress', 'lost') or ${r.paid} or ${completed})`.mapWith(Boolean),
      inProgress: sql<boolean>`bool_or(${r.status} = 'in_progress' and not ${r.paid} and not ${completed})`.mapWith(Boolean),
      lost: sql<boolean>`bool_or(${r.status} = 'lost')`.mapWith(Boolean),
      endedAt: sql<Date | null>`max(${ended})`.mapWith(toDate),
    })
    .from(r)
    .where(userIds ? inArray(r.userId, [...userIds]) : undefined)
    .groupBy(r.userId);
  return rows;
}

// ---------------------------------------------------------------- writes

/**
 * Moves the request (step, form data, status, lost reason) if nobody wrote it since `row` was
 * read; `null` otherwise (the caller answers 409). A request that was lost and comes back into the
 * flow brings its user back too (stop_flow cleared), in the same transaction.
 */
export async function moveRequest(
  db: Db,
  row: RequestRow,
  changes: Pick<RequestChanges, 'step' | 'formData' | 'status' | 'lostReason'> & { step: string },
): Promise<RequestRow | null> {
  const backFromLost = row.status === 'lost' && changes.status !== undefined && changes.status !== 'lost';
  if (!backFromLost) return writeIfUnchanged(db, row, changes);
  return db.transaction(async (tx) => {
    const moved = await writeIfUnchanged(tx, row, changes);
    if (moved) await tx.update(users).set({ stopFlow: false }).where(eq(users.id, row.userId));
    return moved;
  });
}

/**
 * The move of a step call (submit, next, previous), prepared once per database: one
 * `UPDATE … WHERE id AND version … RETURNING` that also returns everything the answer carries
 * (request-extras.ts, read from the new row's form data), so a step submit is the token, the
 * request with its partner, the step rule's own check (if any) and this write: no re-read (issue 14).
 * Every column a move may change is written; a call that changes only the step sends the others
 * as read, which the version check makes the same thing.
 */
function prepareMove(db: Db) {
  const extras = extrasSql({
    id: sql`${registrationRequests.id}`,
    userId: sql`${registrationRequests.userId}`,
    partnerId: sql`${sql.placeholder('partnerId')}::integer`,
    signatureFileId: signatureFileIdSql(registrationRequests.formData),
  });
  // Placeholders go through each column's own encoder (jsonb → JSON text, timestamp → ISO text).
  const value = <T>(name: string) => sql.placeholder(name) as unknown as T;
  return db
    .update(registrationRequests)
    .set({
      step: value<string>('step'),
      formData: value<Record<string, unknown>>('formData'),
      status: value<string>('status'),
      lostReason: value<string | null>('lostReason'),
      version: value<number>('nextVersion'),
      updatedAt: value<Date>('updatedAt'),
    })
    .where(and(eq(registrationRequests.id, sql.placeholder('id')), eq(registrationRequests.version, sql.placeholder('version'))))
    .returning({ request: registrationRequests, extras })
    .prepare('move_request_with_extras');
}

const preparedMoves = new WeakMap<Db, ReturnType<typeof prepareMove>>();

/**
 * `moveRequest` for a step call that answers with the request: the moved row and what its answer
 * carries, from the write itself. `null`: the request changed since `row` was read (409).
 */
export async function moveRequestWithExtras(
  db: Db,
  row: RequestRow,
  partnerId: number,
  changes: Pick<RequestChanges, 'step' | 'formData' | 'status' | 'lostReason'> & { step: string },
): Promise<{ request: RequestRow; extras: RequestExtras } | null> {
  const backFromLost = row.status === 'lost' && changes.status !== undefined && changes.status !== 'lost';
  if (backFromLost) {
    // Rare (a lost request back in the flow): the user's stop_flow is written in the same transaction.
    const moved = await moveRequest(db, row, changes);
    return moved && { request: moved, extras: await requestExtras(db, { id: moved.id, userId: moved.userId, partnerId, signatureFileId: signatureFileIdOf(moved.formData) }) };
  }
  let statement = preparedMoves.get(db);
  if (!statement) preparedMoves.set(db, (statement = prepareMove(db)));
  const [moved] = await statement.execute({
    id: row.id,
    version: row.version,
    nextVersion: row.version + 1,
    updatedAt: new Date(),
    partnerId,
    step: changes.step,
    formData: changes.formData ?? row.formData,
    status: changes.status ?? row.status,
    lostReason: changes.lostReason === undefined ? row.lostReason : changes.lostReason,
  });
  return moved ? { request: moved.request, extras: parseExtras(moved.extras) } : null;
}

/**
 * The data migration of issue 31, run when the app starts (server/plugins/database.ts), after the
 * SQL migration gave Rev.2 codes their own ids and the seed loaded Rev.3 and the correspondence:
 * requests whose dossier is not sent yet (`form_data.submitted_at` empty) and still hold Rev.2 codes
 * get their one-to-one Rev.3 codes (`codesInCurrentRevision`); a code that split stays for the
 * applicant to choose. Sent dossiers keep the codes as sent. Returns how many requests moved.
 */
export async function moveCodesToCurrentRevision(db: Db): Promise<number> {
  const candidates = await db
    .select()
    .from(registrationRequests)
    .where(
      sql`coalesce(${registrationRequests.formData}->>'submitted_at', '') = '' and jsonb_typeof(${registrationRequests.formData}->'codes') = 'array'
        and exists (select 1 from jsonb_array_elements(${registrationRequests.formData}->'codes') c
                    where jsonb_typeof(c) = 'number' and (c #>> '{}')::numeric between ${PREVIOUS_REVISION_IDS[0]} and ${PREVIOUS_REVISION_IDS[1]})`,
    );
  if (!candidates.length) return 0;
  const targets = await correspondenceTargets(db);
  let moved = 0;
  for (const row of candidates) {
    const codes = codesInCurrentRevision(row.formData.codes as unknown[], targets);
    if (codes && (await mergeInto(db, row.id, (current) => ({ formData: { ...current.formData, codes: codesInCurrentRevision(current.formData.codes as unknown[], targets) ?? current.formData.codes } })))) moved++;
  }
  return moved;
}

/** The overview's inline edits (profile names, CNP, CAEN codes), if nobody wrote the request since `row` was read. */
export async function saveOverview(db: Db, row: RequestRow, changes: { profile: Record<string, unknown>; formData: Record<string, unknown> }): Promise<RequestRow | null> {
  return writeIfUnchanged(db, row, changes);
}

/**
 * Merges fields into the request's profile (the identity decision's names and CNP, the home
 * address form): kept whatever else was written meanwhile, re-applied on the newest version.
 */
export async function mergeProfile(db: Db, requestId: number, values: Record<string, unknown>): Promise<RequestRow | null> {
  if (!Object.keys(values).length) return byId(db, requestId).then((r) => r ?? null);
  return mergeInto(db, requestId, (current) => ({ profile: { ...current.profile, ...values } }));
}

/**
 * Leaves the flow (spec 001 "mark-as-lost"): the request keeps the reason and the user's stop_flow
 * is set, both or neither. `null`: the request changed since `row` was read.
 */
export async function markLost(db: Db, row: RequestRow, reason: string): Promise<RequestRow | null> {
  return db.transaction(async (tx) => {
    const moved = await writeIfUnchanged(tx, row, { status: 'lost', lostReason: reason });
    if (moved) await tx.update(users).set({ stopFlow: true }).where(eq(users.id, row.userId));
    return moved;
  });
}

/** Back into the flow (spec 001 "mark-as-unlost"): the request is in progress again and stop_flow cleared, both or neither. */
export async function markUnlost(db: Db, row: RequestRow): Promise<RequestRow | null> {
  return db.transaction(async (tx) => {
    const moved = row.status === 'lost' ? await writeIfUnchanged(tx, row, { status: 'in_progress', lostReason: null }) : row;
    if (moved) await tx.update(users).set({ stopFlow: false }).where(eq(users.id, row.userId));
    return moved;
  });
}

/**
 * Marks the request paid inside the payment's transaction `tx` and moves it to `stepOf(paid row)`
 * (the flow resolved as paid). Re-applied on a newer version when the applicant wrote meanwhile;
 * `already-paid` when it already was.
 */
export async function markRequestPaid(
  tx: Tx,
  requestId: number,
  paidAt: Date,
  stepOf: (paid: RequestRow) => Promise<string>,
): Promise<'paid' | 'already-paid'> {
  let already = false;
  await mergeInto(tx, requestId, async (current) => {
    already = current.paid;
    if (current.paid) return null;
    return { paid: true, paidAt, step: await stepOf({ ...current, paid: true, paidAt }) };
  });
  return already ? 'already-paid' : 'paid';
}

/**
 * Finalizes the dossier (an operator's `finalized` timeline item) and runs `alongside` in the same
 * transaction: if the request changed since `row` was read, 409 and nothing is written.
 */
export async function finalizeRequest<T>(db: Db, row: RequestRow, alongside: (tx: Tx) => Promise<T>): Promise<T> {
  return setRequestStatus(db, row, 'finalized', alongside);
}

/**
 * Sets the request's status (an operator's `finalized` or `rejected`) with what goes with it (the
 * timeline item, the audit entry) in one transaction, if nobody wrote the request since `row` was read (409 otherwise).
 */
export async function setRequestStatus<T>(db: Db, row: RequestRow, status: string, alongside: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const moved = await writeIfUnchanged(tx, row, { status });
    if (!moved) throw new HttpError(409, CONFLICT_MESSAGE);
    return alongside(tx);
  });
}

/**
 * A lost application past its retention period (issue 32, server/privacy/retention.ts): each of the
 * user's requests keeps its status and lost reason, and nothing else of what the applicant entered
 * (form data and profile emptied, back at its flow's first step, `firstStep(registration_type)`, so
 * a return starts clean), through the version check, in the reduction's transaction `tx`. Returns
 * the requests' ids; null, with nothing written, when one of them is no longer lost (the applicant
 * came back meanwhile); a request written meanwhile throws the 409, which rolls `tx` back.
 */
export async function emptyLostRequests(tx: Tx, userId: number, firstStep: (registrationType: number) => string | undefined): Promise<number[] | null> {
  const rows = await tx.select().from(registrationRequests).where(eq(registrationRequests.userId, userId));
  if (!rows.length || rows.some((row) => row.status !== 'lost')) return null;
  for (const row of rows) {
    const emptied = await writeIfUnchanged(tx, row, { formData: {}, profile: {}, step: firstStep(row.registrationType) ?? row.step });
    if (!emptied) throw new HttpError(409, CONFLICT_MESSAGE);
  }
  return rows.map((row) => row.id);
}

export type { Tx };
