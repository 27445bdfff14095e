import { eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db';
import { caenId, CURRENT_CAEN_REVISION, PREVIOUS_CAEN_REVISION } from '../db/caen';
import { caenCodes, caenCorrespondence } from '../db/schema';
import { normaliseCaenCode, type CompanyRecord } from './types';

/**
 * The main activity code of an existing PFA, read against both CAEN revisions (issue 31). ANAF (and
 * the local registry) give a firm's `cod_CAEN` as four digits without saying which revision: a firm
 * registered before 2025 carries a CAEN Rev.2 code until it updates it at the trade register, and
 * the same four digits may name different activities in the two revisions (4791: Rev.2 mail-order
 * and internet retail, Rev.3 intermediation in non-specialised retail).
 */

/** A CAEN class as the answer shows it. */
export interface CaenClass {
  code: string;
  name: string;
}

/**
 * - `current`: the code is a CAEN Rev.3 class only, or a class of both revisions whose Rev.2 class
 *   became exactly the same Rev.3 code: nothing to update.
 * - `previous`: a CAEN Rev.2 class only (6201 → 6210): the firm must update it; `equivalents` are its Rev.3 classes.
 * - `ambiguous`: a class of both revisions whose Rev.2 class did not become only the same code (4791):
 *   read as Rev.2 it must be updated to one of `equivalents`; read as Rev.3 it names `current`.
 * - `unknown`: neither revision has the code.
 */
export type CompanyCaenStatus = 'current' | 'previous' | 'ambiguous' | 'unknown';

export const COMPANY_CAEN_STATUSES: readonly CompanyCaenStatus[] = ['current', 'previous', 'ambiguous', 'unknown'];

export interface CompanyCaen {
  /** The four digits (the registry's code, normalised: "111" → "0111"). */
  code: string;
  status: CompanyCaenStatus;
  /** The class of this code in CAEN Rev.3, if it has one. */
  current: CaenClass | null;
  /** The class of this code in CAEN Rev.2, if it had one. */
  previous: CaenClass | null;
  /** `previous` and `ambiguous`: the Rev.3 classes the Rev.2 class became (official correspondence), by code; else empty. */
  equivalents: CaenClass[];
}

/** The request's `company` as the API answers it: the stored record and what its code means today. */
export type CompanyAnswer = CompanyRecord & { caen: CompanyCaen | null };

const target = alias(caenCodes, 'caen_target');

/** What a firm's main activity code means in CAEN Rev.3, in one query (the code's class in both revisions with the Rev.2 class's correspondence). */
export async function readCompanyCaen(db: Db, code: string): Promise<CompanyCaen> {
  const digits = normaliseCaenCode(code);
  if (!digits) return { code, status: 'unknown', current: null, previous: null, equivalents: [] };
  const rows = await db
    .select({ revision: caenCodes.revision, name: caenCodes.name, toCode: target.code, toName: target.name })
    .from(caenCodes)
    .leftJoin(caenCorrespondence, eq(caenCorrespondence.rev2Id, caenCodes.id))
    .leftJoin(target, eq(target.id, caenCorrespondence.rev3Id))
    .where(inArray(caenCodes.id, [caenId(PREVIOUS_CAEN_REVISION, digits), caenId(CURRENT_CAEN_REVISION, digits)]))
    .orderBy(target.code);
  const classOf = (revision: string): CaenClass | null => {
    const row = rows.find((r) => r.revision === revision);
    return row ? { code: digits, name: row.name } : null;
  };
  const current = classOf(CURRENT_CAEN_REVISION);
  const previous = classOf(PREVIOUS_CAEN_REVISION);
  const equivalents: CaenClass[] = [];
  for (const r of rows) {
    if (r.revision !== PREVIOUS_CAEN_REVISION || r.toCode === null || r.toName === null) continue;
    if (!equivalents.some((e) => e.code === r.toCode)) equivalents.push({ code: r.toCode, name: r.toName });
  }
  const answer = { code: digits, current, previous };
  if (!previous) return { ...answer, status: current ? 'current' : 'unknown', equivalents: [] };
  if (!current) return { ...answer, status: 'previous', equivalents };
  // In both revisions: the same activity only when the Rev.2 class became this very code and nothing else.
  if (equivalents.length === 1 && equivalents[0].code === digits) return { ...answer, status: 'current', equivalents: [] };
  return { ...answer, status: 'ambiguous', equivalents };
}

/** The company with what its main activity code means today (no query without a company or a code). */
export async function companyAnswer(db: Db, company: CompanyRecord | null): Promise<CompanyAnswer | null> {
  if (!company) return null;
  return { ...company, caen: company.caen_code ? await readCompanyCaen(db, company.caen_code) : null };
}
