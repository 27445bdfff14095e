import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { files, partners, registrationRequests, timelineItems, users } from '../db/schema';
import type { RequestRow } from '../registration/model';
import { escapeLike } from '../lib/like';

/**
 * The staff's queries across dossiers: the operator console's search and paging
 * (`/api/staff/dossiers`, server/routes/staff-dossiers.ts) and the operator command's list and
 * look-ups (`/api/ops/dossiers`, server/routes/ops.ts). Reads only: every write of a request goes
 * through the request store (server/registration/store.ts) and its version check; these are the
 * one other place allowed to name `registration_requests` (tests/server/request-store.test.ts).
 */

/** A LIKE pattern: `term` anywhere, its wildcard characters escaped. */
const likeTerm = (term: string) => `%${escapeLike(term)}%`;

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
  const where = id !== undefined ? eq(registrationRequests.id, id) : term ? ilike(users.email, likeTerm(term)) : undefined;
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
