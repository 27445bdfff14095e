import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Flow } from '../../src/core/flow';
import type { Db } from '../db';
import { perDatabase } from '../db/per-database';
import { partners, payments, registrationRequests, timelineItems, tokens, users } from '../db/schema';
import { forbidden } from '../lib/http-errors';
import { accessTokenParams, liveAccessToken, touchAccessToken, type UserRow } from '../lib/tokens';
import type { PartnerPrice, PartnerRow, RequestRow } from './model';
import { extrasSql, parseExtras, parsePrices, partnerPricesSql, signatureFileIdSql, type RequestExtras } from './request-extras';

/**
 * The request store's reads (server/registration/store.ts is the store: its writes, its rule, and
 * the one import for callers, which re-exports these). Opening a request creates it on first use;
 * everything else here only reads.
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

/** The request of an id, or undefined. */
export async function requestById(db: Executor, id: number): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(registrationRequests).where(eq(registrationRequests.id, id));
  return row;
}

const userTypeIs = (userId: number, registrationType: number) =>
  and(eq(registrationRequests.userId, userId), eq(registrationRequests.registrationType, registrationType));

/** The user's request of a registration type, if any. */
export async function findRequest(db: Db, userId: number, registrationType: number): Promise<RequestRow | undefined> {
  const [row] = await db.select().from(registrationRequests).where(userTypeIs(userId, registrationType));
  return row;
}

/** What an answer carries besides the row (request-extras.ts), for the request and partner rows of a joined read. */
const joinedRequestExtras = () =>
  extrasSql({
    id: sql`${registrationRequests.id}`,
    userId: sql`${registrationRequests.userId}`,
    partnerId: sql`${partners.id}`,
    signatureFileId: signatureFileIdSql(registrationRequests.formData),
  });

/**
 * The read of every API call, prepared once per database (issue 14: the query is not rebuilt by
 * Drizzle on each request, and PostgreSQL plans it once per connection).
 */
function prepareReads(db: Db) {
  const extras = joinedRequestExtras();
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

const readStatements = perDatabase(prepareReads);

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
  const extras = joinedRequestExtras();
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

const signedInStatements = perDatabase(prepareSignedInReads);

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
  const statements = signedInStatements(db);
  const params = { ...accessTokenParams(secret, idleMinutes, now), registrationType };
  const [found] = options.withExtras ? await statements.withExtras.execute(params) : await statements.plain.execute(params);
  if (!found) return null;
  await touchAccessToken(db, found.token, now);
  const extras = 'extras' in found && found.request ? parseExtras(found.extras) : null;
  return { token: found.token, user: found.user, partner: found.partner, prices: parsePrices(found.prices), request: found.request, extras };
}

/** Every request of a user, oldest first (the data export, issue 32). */
export async function requestsOfUser(db: Db, userId: number): Promise<RequestRow[]> {
  return db.select().from(registrationRequests).where(eq(registrationRequests.userId, userId)).orderBy(registrationRequests.id);
}

/** The ids of a user's requests, as a subquery (the access log's entries about them). */
export function requestIdsOfUser(db: Db, userId: number) {
  return db.select({ id: registrationRequests.id }).from(registrationRequests).where(eq(registrationRequests.userId, userId));
}

/** What the onboarding state of a user is decided on: each of their requests' type, step, status and paid flag. */
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

