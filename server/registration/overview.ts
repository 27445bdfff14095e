import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { caenCodes, partners, users } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import { resolveFlow, type FlowStep } from '../../src/core/flow';
import { flowContext, type RequestRow } from './requests';
import type { StepRule } from './step-rules';

/** The overview step (spec 001 §2 item 4): profile edits, CAEN codes and the submit of the dossier. */
export const OVERVIEW_STEP = 'requesting-company-step-7';
export const MAX_CODES = 5;

export const MESSAGES = {
  saved: 'Informațiile au fost modificate.',
  firstNameRequired: 'Prenumele este obligatoriu.',
  lastNameRequired: 'Numele este obligatoriu.',
  nameChars: 'Poate conține doar litere, spații, cratime și apostrof (cel mult 60 de caractere).',
  cnpRequired: 'CNP-ul este obligatoriu.',
  cnpDigits: 'CNP-ul trebuie să aibă exact 13 cifre.',
  cnpDate: 'CNP-ul nu conține o dată de naștere validă.',
  cnpCheck: 'CNP-ul nu este valid: cifra de control nu corespunde.',
  tooManyCodes: `Poți alege cel mult ${MAX_CODES} coduri CAEN.`,
  duplicateCode: 'Un cod CAEN nu poate fi ales de două ori.',
  unknownCode: 'Codul CAEN ales nu există.',
  primaryRequired: 'Alege codul CAEN principal.',
  primaryNotDeletable: 'Codul CAEN principal nu poate fi șters; îl poți înlocui cu altul.',
  lockedCodes: (codes: string[]) => `Codurile ${codes.join(' și ')} sunt stabilite de partener și nu pot fi modificate.`,
  codesByOperator: 'Codurile CAEN vor fi stabilite de colegii noștri pe baza activității descrise.',
} as const;

/** Letters (with diacritics), spaces, hyphens and apostrophes; 1–60 characters. */
const NAME = /^[\p{L}][\p{L}\p{M} '’-]{0,59}$/u;

export function nameProblem(value: unknown, required: string): string | null {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return required;
  return NAME.test(text) ? null : MESSAGES.nameChars;
}

/**
 * A Romanian personal numeric code (CNP): SAALLZZJJNNNC, 13 digits; S the sex and century
 * (1/2 1900s, 3/4 1800s, 5/6 2000s, 7/8 residents, 9 foreigners), a real birth date, and the
 * check digit C = (Σ digit × 279146358279) mod 11 (10 → 1). Null when valid, else the message.
 */
export function cnpProblem(value: unknown): string | null {
  const cnp = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (!cnp) return MESSAGES.cnpRequired;
  if (!/^\d{13}$/.test(cnp)) return MESSAGES.cnpDigits;
  const d = [...cnp].map(Number);
  const century = { 1: 1900, 2: 1900, 3: 1800, 4: 1800, 5: 2000, 6: 2000, 7: 1900, 8: 1900, 9: 1900 }[d[0]];
  if (!century) return MESSAGES.cnpDigits;
  const year = century + d[1] * 10 + d[2];
  const month = d[3] * 10 + d[4];
  const day = d[5] * 10 + d[6];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = month >= 1 && month <= 12 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real || date.getTime() > Date.now()) return MESSAGES.cnpDate;
  const weights = [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9];
  const sum = weights.reduce((acc, w, i) => acc + w * d[i], 0);
  const check = sum % 11 === 10 ? 1 : sum % 11;
  return check === d[12] ? null : MESSAGES.cnpCheck;
}

/** What the resolved overview step of a request says: locked codes (credit partner) and codes set by operators. */
export async function overviewOptions(app: FastifyInstance, request: RequestRow): Promise<{ lockedCodes: string[]; codesByOperator: boolean; maxCodes: number }> {
  const flow = app.flows.byType[2];
  const [{ partner }] = await app.db
    .select({ partner: partners })
    .from(users)
    .innerJoin(partners, eq(partners.id, users.partnerId))
    .where(eq(users.id, request.userId));
  const resolved = resolveFlow(flow, flowContext(request, partner));
  const step = resolved.steps.find((s: FlowStep) => s.id === OVERVIEW_STEP);
  const options = ((step?.uiSchema ?? {}) as { 'ui:options'?: Record<string, unknown> })['ui:options'] ?? {};
  return {
    lockedCodes: Array.isArray(options.lockedCodes) ? (options.lockedCodes as string[]) : [],
    codesByOperator: options.codesByOperator === true,
    maxCodes: typeof options.maxCodes === 'number' ? Math.min(options.maxCodes, MAX_CODES) : MAX_CODES,
  };
}

export type CaenRow = typeof caenCodes.$inferSelect;

/** The request's codes (ids in `form_data.codes`, primary first) as the API shows them (spec 001 §3 "CAEN code"). */
export async function codesOf(db: Db, formData: Record<string, unknown>): Promise<Array<{ id: number; code: string; name: string; is_primary: 0 | 1 }>> {
  const ids = Array.isArray(formData.codes) ? (formData.codes as unknown[]).filter((v): v is number => Number.isInteger(v)) : [];
  if (!ids.length) return [];
  const rows = await db.select().from(caenCodes).where(inArray(caenCodes.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is CaenRow => !!r)
    .map((r, i) => ({ id: r.id, code: r.code, name: r.name, is_primary: i === 0 ? 1 : 0 }));
}

/**
 * Checks a new list of codes (ids, primary first): at most five, no repeats, all existing, the
 * partner's locked codes kept first and in order, the primary never removed. Returns the rows.
 */
export async function checkCodes(
  db: Db,
  ids: number[],
  options: { lockedCodes: string[]; codesByOperator: boolean; maxCodes: number },
  previous: unknown,
): Promise<string | null> {
  if (options.codesByOperator) return MESSAGES.codesByOperator;
  if (ids.length > options.maxCodes) return MESSAGES.tooManyCodes;
  if (new Set(ids).size !== ids.length) return MESSAGES.duplicateCode;
  if (!ids.length) return Array.isArray(previous) && previous.length ? MESSAGES.primaryNotDeletable : MESSAGES.primaryRequired;
  const rows = await db.select().from(caenCodes).where(inArray(caenCodes.id, ids));
  if (rows.length !== ids.length) return MESSAGES.unknownCode;
  const codeOf = new Map(rows.map((r) => [r.id, r.code]));
  const chosen = ids.map((id) => codeOf.get(id));
  if (options.lockedCodes.some((code, i) => chosen[i] !== code)) return MESSAGES.lockedCodes(options.lockedCodes);
  return null;
}

/**
 * `POST /api/registration/send` (step 7 submit): the office type is in the schema; here the
 * profile must be complete (names, a valid CNP) and the codes chosen, unless operators set them
 * (activity-unknown variant). Keeps the time of sending; the route marks the request submitted.
 */
export const sendRule: StepRule = async ({ app, request }) => {
  const profile = request.profile;
  const errors: Record<string, string[]> = {};
  const last = nameProblem(profile.last_name, MESSAGES.lastNameRequired);
  const first = nameProblem(profile.first_name, MESSAGES.firstNameRequired);
  const cnp = cnpProblem(profile.personal_code);
  if (last) errors.last_name = [last];
  if (first) errors.first_name = [first];
  if (cnp) errors.personal_code = [cnp];
  const options = await overviewOptions(app, request);
  if (!options.codesByOperator) {
    const ids = Array.isArray(request.formData.codes) ? (request.formData.codes as number[]) : [];
    const problem = await checkCodes(app.db, ids, options, []);
    if (problem) errors.codes = [problem];
  }
  if (Object.keys(errors).length) throw new FieldValidationError(errors, Object.values(errors)[0][0]);
  return { submitted_at: new Date().toISOString() };
};
