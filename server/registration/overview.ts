import { inArray } from 'drizzle-orm';
import type { Db } from '../db';
import { caenCodes } from '../db/schema';
import { CURRENT_CAEN_REVISION, currentCaenId, currentEquivalents } from '../db/caen';
import { FieldValidationError } from '../lib/http-errors';
import { defaultCaenCode } from '../db/activity-caen';
import { cnpProblem as coreCnpProblem } from '../../src/core/personal-code';
import type { FlowStep, ResolvedFlow } from '../../src/core/flow';
import type { StepRule } from './model';
import { stepOptions } from './rules/options';

/** The overview step (spec 001 §2 item 4): profile edits, CAEN codes and the submit of the dossier. */

/** The rule name the flow gives the overview step (the step that sends the dossier). */
export const OVERVIEW_RULE = 'send';

/** The overview step of a resolved flow: the step whose rule is `send`, or undefined. */
export function overviewStep(flow: ResolvedFlow): FlowStep | undefined {
  return flow.steps.find((s) => s.rule === OVERVIEW_RULE);
}

export const MESSAGES = {
  saved: 'Informațiile au fost modificate.',
  firstNameRequired: 'Prenumele este obligatoriu.',
  lastNameRequired: 'Numele este obligatoriu.',
  nameChars: 'Poate conține doar litere, spații, cratime și apostrof (cel mult 60 de caractere).',
  cnpRequired: 'CNP-ul este obligatoriu.',
  cnpDigits: 'CNP-ul trebuie să aibă exact 13 cifre.',
  cnpDate: 'CNP-ul nu conține o dată de naștere validă.',
  cnpCheck: 'CNP-ul nu este valid: cifra de control nu corespunde.',
  tooManyCodes: (max: number) => `Poți alege cel mult ${max} coduri CAEN.`,
  duplicateCode: 'Un cod CAEN nu poate fi ales de două ori.',
  unknownCode: 'Codul CAEN ales nu există.',
  primaryRequired: 'Alege codul CAEN principal.',
  primaryNotDeletable: 'Codul CAEN principal nu poate fi șters; îl poți înlocui cu altul.',
  lockedCodes: (codes: string[]) => `Codurile ${codes.join(' și ')} sunt stabilite de partener și nu pot fi modificate.`,
  codesByOperator: 'Codurile CAEN vor fi stabilite de colegii noștri pe baza activității descrise.',
  previousRevision: (code: string) => `Codul ${code} este din CAEN Rev.2, pe care Registrul Comerțului nu îl mai acceptă: alege codul CAEN Rev.3 care îl înlocuiește.`,
} as const;

/** Letters (with diacritics), spaces, hyphens and apostrophes; 1–60 characters. */
const NAME = /^[\p{L}][\p{L}\p{M} '’-]{0,59}$/u;

export function nameProblem(value: unknown, required: string): string | null {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return required;
  return NAME.test(text) ? null : MESSAGES.nameChars;
}

/** The CNP check of src/core/personal-code.ts with the overview's Romanian messages; null when valid. */
export function cnpProblem(value: unknown): string | null {
  const problem = coreCnpProblem(value);
  if (!problem) return null;
  return { required: MESSAGES.cnpRequired, digits: MESSAGES.cnpDigits, date: MESSAGES.cnpDate, check: MESSAGES.cnpCheck }[problem];
}

export interface OverviewOptions {
  lockedCodes: string[];
  codesByOperator: boolean;
  maxCodes: number;
}

/** What the resolved overview step says: locked codes (credit partner), codes set by operators, how many codes (`maxCodes`). */
export function overviewOptions(step: Pick<FlowStep, 'uiSchema'> | undefined): OverviewOptions {
  const options = stepOptions(step);
  return {
    lockedCodes: Array.isArray(options.lockedCodes) ? (options.lockedCodes as string[]) : [],
    codesByOperator: options.codesByOperator === true,
    maxCodes: typeof options.maxCodes === 'number' ? options.maxCodes : 0,
  };
}

export type CaenRow = typeof caenCodes.$inferSelect;

export interface RequestCode {
  id: number;
  code: string;
  name: string;
  is_primary: 0 | 1;
  revision: string;
  /** A code of the previous revision: the current classes it became (several: the applicant chooses). */
  replaced_by?: Array<{ id: number; code: string; name: string }>;
}

/** The request's codes (ids in `form_data.codes`, primary first) as the API shows them (spec 001 §3 "CAEN code"). */
export async function codesOf(db: Db, formData: Record<string, unknown>): Promise<RequestCode[]> {
  const ids = Array.isArray(formData.codes) ? (formData.codes as unknown[]).filter((v): v is number => Number.isInteger(v)) : [];
  if (!ids.length) return [];
  const rows = await db.select().from(caenCodes).where(inArray(caenCodes.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const old = rows.filter((r) => r.revision !== CURRENT_CAEN_REVISION).map((r) => r.id);
  const equivalents = await currentEquivalents(db, old);
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is CaenRow => !!r)
    .map((r, i) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      is_primary: i === 0 ? 1 : 0,
      revision: r.revision,
      ...(r.revision !== CURRENT_CAEN_REVISION ? { replaced_by: equivalents.get(r.id) ?? [] } : {}),
    }));
}

/**
 * Checks a new list of codes (ids, primary first): at most five, no repeats, all existing, the
 * partner's locked codes kept first and in order, the primary never removed. Codes are of the
 * current revision (CAEN Rev.3); a Rev.2 code that split keeps its place while the applicant edits
 * other codes (`previous` holds it), but the dossier is not sent with it (`sendRule`).
 */
export async function checkCodes(
  db: Db,
  ids: number[],
  options: OverviewOptions,
  previous: unknown,
  { sending = false } = {},
): Promise<string | null> {
  if (options.codesByOperator) return MESSAGES.codesByOperator;
  if (ids.length > options.maxCodes) return MESSAGES.tooManyCodes(options.maxCodes);
  if (new Set(ids).size !== ids.length) return MESSAGES.duplicateCode;
  if (!ids.length) return Array.isArray(previous) && previous.length ? MESSAGES.primaryNotDeletable : MESSAGES.primaryRequired;
  const rows = await db.select().from(caenCodes).where(inArray(caenCodes.id, ids));
  if (rows.length !== ids.length) return MESSAGES.unknownCode;
  const kept = new Set(Array.isArray(previous) ? previous : []);
  const old = rows.find((r) => r.revision !== CURRENT_CAEN_REVISION && (sending || !kept.has(r.id)));
  if (old) return sending ? MESSAGES.previousRevision(old.code) : MESSAGES.unknownCode;
  const codeOf = new Map(rows.map((r) => [r.id, r.code]));
  const chosen = ids.map((id) => codeOf.get(id));
  if (options.lockedCodes.some((code, i) => chosen[i] !== code)) return MESSAGES.lockedCodes(options.lockedCodes);
  return null;
}

/**
 * The codes an activity choice leaves on the request (issue 17): the chosen activity's default CAEN
 * code (server/db/seed/activities.json) becomes the primary code while the applicant has not chosen
 * codes of their own (none yet, or only the previous activity's default). Operators' codes (the
 * unknown activity, spec 001 §6) and a partner's locked codes start without it. Returns the new
 * `codes`, or undefined to keep what the request holds.
 */
export async function activityCodes(
  db: Db,
  formData: Record<string, unknown>,
  activity: string,
  options: OverviewOptions,
): Promise<number[] | undefined> {
  const current = Array.isArray(formData.codes) ? (formData.codes as unknown[]) : [];
  const previousDefault = await currentCaenId(db, defaultCaenCode(formData.activity));
  const untouched = current.length === 0 || (current.length === 1 && current[0] === previousDefault);
  if (!untouched) return undefined;
  const next = options.codesByOperator || options.lockedCodes.length ? null : await currentCaenId(db, defaultCaenCode(activity));
  const codes = next === null ? [] : [next];
  return codes.length === current.length && codes[0] === current[0] ? undefined : codes;
}

/**
 * `POST /api/registration/send` (step 7 submit): the office type is in the schema; here the
 * profile must be complete (names, a valid CNP) and the codes chosen, unless operators set them
 * (activity-unknown variant). Keeps the time of sending; the route marks the request submitted.
 */
export const sendRule: StepRule = async ({ app, request, step }) => {
  const profile = request.profile;
  const errors: Record<string, string[]> = {};
  const last = nameProblem(profile.last_name, MESSAGES.lastNameRequired);
  const first = nameProblem(profile.first_name, MESSAGES.firstNameRequired);
  const cnp = cnpProblem(profile.personal_code);
  if (last) errors.last_name = [last];
  if (first) errors.first_name = [first];
  if (cnp) errors.personal_code = [cnp];
  const options = overviewOptions(step);
  if (!options.codesByOperator) {
    const ids = Array.isArray(request.formData.codes) ? (request.formData.codes as number[]) : [];
    const problem = await checkCodes(app.db, ids, options, [], { sending: true });
    if (problem) errors.codes = [problem];
  }
  if (Object.keys(errors).length) throw new FieldValidationError(errors, Object.values(errors)[0][0]);
  return { submitted_at: new Date().toISOString() };
};
