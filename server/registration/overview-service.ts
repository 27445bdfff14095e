import { and, asc, count, eq, ilike, inArray, like, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { searchKey } from '../../src/core/counties';
import type { Db } from '../db';
import { CURRENT_CAEN_REVISION } from '../db/caen';
import { caenCodes, caenCorrespondence } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import { DB_INT_MAX } from '../lib/input-limits';
import type { UserRow } from '../lib/tokens';
import { staleStep } from './model';
import { checkCodes, cnpProblem, codesOf, MESSAGES, nameProblem, overviewOptions, overviewStep } from './overview';
import { loadRequest } from './serialize';
import { saveOverview } from './store';
import { escapeLike } from '../lib/like';

/**
 * The overview step's own calls (spec 001 §2 item 4, §5, §7; routes in server/routes/overview.ts):
 * the CAEN search, the data the step shows, and the inline edits of the profile and the codes.
 * The step's checks and its send rule are overview.ts.
 */

const MIN_SEARCH = 3;

/** The fields the overview edits inline. */
export const OVERVIEW_FIELDS = ['first_name', 'last_name', 'personal_code', 'codes'] as const;
type Field = (typeof OVERVIEW_FIELDS)[number];

export interface OverviewUpdate {
  first_name?: string;
  last_name?: string;
  personal_code?: string;
  codes?: number[];
  /** The spec's one-field form: `{ field, value }` (errors then under `value`). */
  field?: Field;
  value?: unknown;
}

/** For each Rev.3 class, the Rev.2 codes starting with the searched digits that it replaces. */
async function replacedCodes(db: Db, ids: number[], pattern: string): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: caenCorrespondence.rev3Id, code: caenCodes.code })
    .from(caenCorrespondence)
    .innerJoin(caenCodes, eq(caenCodes.id, caenCorrespondence.rev2Id))
    .where(and(inArray(caenCorrespondence.rev3Id, ids), like(caenCodes.code, pattern)))
    .orderBy(asc(caenCodes.code));
  for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.code]);
  return out;
}

/**
 * A page of the current revision's CAEN classes, by code, matching `term` (at least 3 characters,
 * else 422) in the name, or as the start of a code: an old Rev.2 code finds the Rev.3 classes that
 * replace it, which then name it in `replaces`.
 */
export async function searchCaenCodes(db: Db, search: string | undefined, offset: number, size: number) {
  const term = search?.trim() ?? '';
  if (term && term.length < MIN_SEARCH) throw new FieldValidationError({ search_term: ['Introdu cel puțin 3 caractere.'] });
  const conditions: SQL[] = [eq(caenCodes.revision, CURRENT_CAEN_REVISION)];
  const digits = term.replace(/[.\s]/g, '');
  const oldCodes = /^\d+$/.test(digits) ? `${escapeLike(digits)}%` : null;
  if (term) {
    const byName = ilike(caenCodes.searchName, `%${escapeLike(searchKey(term))}%`);
    // An old Rev.2 code finds the Rev.3 classes that replace it ("6201" → 6210).
    const byCode = oldCodes
      ? or(
          like(caenCodes.code, oldCodes),
          sql`${caenCodes.id} in (select c.rev3_id from caen_correspondence c join caen_codes r on r.id = c.rev2_id where r.code like ${oldCodes})`,
        )
      : undefined;
    conditions.push(byCode ? (or(byCode, byName) as SQL) : byName);
  }
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db.select({ id: caenCodes.id, code: caenCodes.code, name: caenCodes.name }).from(caenCodes).where(where).orderBy(asc(caenCodes.code)).limit(size).offset(offset),
    db.select({ total: count() }).from(caenCodes).where(where),
  ]);
  const replaces = oldCodes ? await replacedCodes(db, rows.map((r) => r.id), oldCodes) : new Map<number, string[]>();
  const data = rows.map((r) => {
    const old = (replaces.get(r.id) ?? []).filter((code) => code !== r.code);
    return old.length ? { ...r, replaces: old } : r;
  });
  return { data, total };
}

/** What the overview shows besides the profile: PFA name, codes with their names, e-mail and phone (read-only). */
export async function overviewData(app: FastifyInstance, user: UserRow) {
  const { request: row, resolved } = await loadRequest(app, user, app.flows.byType[2]);
  const step = overviewStep(resolved);
  const options = overviewOptions(step);
  return {
    company_name: typeof row.formData.company_name === 'string' ? row.formData.company_name : null,
    activity: typeof row.formData.activity === 'string' ? row.formData.activity : null,
    codes: await codesOf(app.db, row.formData),
    email: user.email,
    phone: user.phone,
    locked_codes: options.lockedCodes,
    codes_by_operator: options.codesByOperator,
    editable: row.step === step?.id && row.status !== 'submitted',
  };
}

/**
 * The overview's inline edits (names, CNP, CAEN codes), all or none: the request at another step
 * or changed meanwhile answers 409 with the request as it stands; a bad value 422 (under `value`
 * for the one-field form). Answers the request with its codes named.
 */
export async function updateOverview(app: FastifyInstance, user: UserRow, body: OverviewUpdate) {
  const { request: row, resolved, serialize } = await loadRequest(app, user, app.flows.byType[2]);
  const step = overviewStep(resolved);
  if (!step || row.step !== step.id) throw staleStep(await serialize());
  const values: Partial<Record<Field, unknown>> = {};
  let oneField: Field | null = null;
  if (body.field) {
    oneField = body.field;
    values[body.field] = body.value;
  }
  for (const f of OVERVIEW_FIELDS) if (body[f] !== undefined) values[f] = body[f];
  if (!Object.keys(values).length) throw new FieldValidationError({ field: ['Alege câmpul de modificat.'] });

  const errors: Record<string, string[]> = {};
  const profile = { ...row.profile };
  const formData = { ...row.formData };
  if ('last_name' in values) {
    const problem = nameProblem(values.last_name, MESSAGES.lastNameRequired);
    if (problem) errors.last_name = [problem];
    else profile.last_name = String(values.last_name).trim();
  }
  if ('first_name' in values) {
    const problem = nameProblem(values.first_name, MESSAGES.firstNameRequired);
    if (problem) errors.first_name = [problem];
    else profile.first_name = String(values.first_name).trim();
  }
  if ('personal_code' in values) {
    const problem = cnpProblem(values.personal_code);
    if (problem) errors.personal_code = [problem];
    else profile.personal_code = String(values.personal_code).trim();
  }
  if ('codes' in values) {
    const raw = values.codes;
    const ids = Array.isArray(raw) ? raw.map(Number) : null;
    const problem =
      !ids || ids.some((id) => !Number.isInteger(id) || id < 1 || id > DB_INT_MAX) ? MESSAGES.unknownCode : await checkCodes(app.db, ids, overviewOptions(step), row.formData.codes);
    if (problem) errors.codes = [problem];
    else formData.codes = ids;
  }
  if (Object.keys(errors).length) {
    const first = Object.values(errors)[0][0];
    throw new FieldValidationError(oneField ? { value: errors[oneField] } : errors, first);
  }
  const saved = await saveOverview(app.db, row, { profile, formData });
  if (!saved) throw staleStep(await serialize());
  return { ...(await serialize(saved)), codes: await codesOf(app.db, saved.formData) };
}
