import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { codesInCurrentRevision, correspondenceTargets, PREVIOUS_REVISION_IDS } from '../db/caen';
import { registrationRequests, users } from '../db/schema';
import { perDatabase } from '../db/per-database';
import { HttpError } from '../lib/http-errors';
import type { RequestRow } from './model';
import { extrasSql, parseExtras, requestExtras, signatureFileIdSql, type RequestExtras } from './request-extras';
import { signatureFileIdOf } from './signature';
import { requestById, type Executor, type Tx } from './store-reads';

/**
 * The request store: the ONLY module that writes `registration_requests`, and with its reads
 * (store-reads.ts, re-exported here: callers import the store from this file) the only one that
 * reads it, besides the staff's read-only searches across dossiers (server/staff/dossier-queries.ts);
 * a test greps the server for it (tests/server/request-store.test.ts).
 *
 * One concurrency rule everywhere, the **version check** (optimistic): every write is
 * `UPDATE … WHERE id = ? AND version = ?` that bumps the version, inside a transaction with
 * whatever else belongs to it (the user's stop_flow, a timeline item, a payment), so a lost race
 * writes nothing at all.
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

// The store's reads (store-reads.ts).
export {
  findRequest,
  openRequest,
  paymentWithRequest,
  requestById,
  requestIdsOfUser,
  requestOwner,
  requestRetentionStates,
  requestStates,
  requestsOfUser,
  requestWithPartner,
  signedInRequest,
  type RequestRetentionState,
  type SignedInRequest,
  type Tx,
} from './store-reads';

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

/** The one conditional write: only if nobody wrote the request since `row` was read. */
async function writeIfUnchanged(db: Executor, row: RequestRow, changes: RequestChanges): Promise<RequestRow | null> {
  const [updated] = await db
    .update(registrationRequests)
    .set({ ...changes, version: row.version + 1, updatedAt: new Date() })
    .where(and(eq(registrationRequests.id, row.id), eq(registrationRequests.version, row.version)))
    .returning();
  return updated ?? null;
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
    const current = await requestById(db, id);
    if (!current) return null;
    const changes = await change(current);
    if (!changes) return current;
    const written = await writeIfUnchanged(db, current, changes);
    if (written) return written;
  }
  throw new HttpError(409, CONFLICT_MESSAGE);
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

const preparedMove = perDatabase(prepareMove);

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
  const [moved] = await preparedMove(db).execute({
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
  if (!Object.keys(values).length) return requestById(db, requestId).then((r) => r ?? null);
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

