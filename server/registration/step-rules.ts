import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { activities, lostReasons, maritalStatuses, partnerPrices, users } from '../db/schema';
import { FieldValidationError } from '../lib/http-errors';
import { identityStepProblem } from '../identity/queries';
import type { RequestRow } from './requests';
import type { UploadedFile } from '../lib/multipart';
import { SIGNATURE_ENDPOINTS, signatureRule } from './signature';
import { icreditOffice, mailingAddressType } from './mailing';
import { sendRule } from './overview';
import { DOCUMENTS_ENDPOINT, documentsRule } from './documents';
import { COLLECT_COMPANY_ENDPOINT, CONFIRM_COMPANY_ENDPOINT, collectCompany, confirmCompany } from './company';

export interface StepRuleInput {
  app: FastifyInstance;
  body: Record<string, unknown>;
  request: RequestRow;
  /** Files of a multipart step submit by field name (`file` for the signature); empty otherwise. */
  files: Record<string, UploadedFile>;
}

/**
 * Server rules of a step beyond its JSON Schema: what only the database knows (nomenclature ids
 * exist) and what the schema cannot say. Keyed by the step's submit endpoint. Returns extra
 * form data to keep with the step's own fields.
 */
export type StepRule = (input: StepRuleInput) => Promise<Record<string, unknown> | void>;

const NONE = 'niciuna';

const questionnaire: StepRule = async ({ app, body, request }) => {
  const reasons = body.reasons as string[];
  const known = await app.db.select().from(lostReasons);
  const shown = new Set(known.filter((r) => r.questionnaireTypes.includes(request.registrationType)).map((r) => r.identifier));
  if (reasons.some((r) => !shown.has(r))) throw new FieldValidationError({ reasons: ['Opțiune necunoscută.'] });
  if (!(reasons.length === 1 && reasons[0] === NONE)) {
    throw new FieldValidationError({
      reasons: ['Cu aceste opțiuni nu poți continua. „Niciuna dintre acestea” nu se poate bifa împreună cu alte opțiuni.'],
    });
  }
};

const activity: StepRule = async ({ app, body }) => {
  const [row] = await app.db.select().from(activities).where(eq(activities.id, body.activity_id as number));
  if (!row || !row.isActive) throw new FieldValidationError({ activity_id: ['Alege o activitate din listă.'] });
  const details = typeof body.activity_details === 'string' ? body.activity_details.trim() : '';
  if (row.code === 'question-mark' && !details) {
    throw new FieldValidationError({ activity_details: ['Descrie pe scurt activitatea pe care o vei avea.'] });
  }
  return { activity: row.code, activity_details: row.code === 'question-mark' ? details : null };
};

const civilStatus: StepRule = async ({ app, body }) => {
  if (body.is_married !== true) return { marital_status_id: null };
  const [row] = await app.db.select().from(maritalStatuses).where(eq(maritalStatuses.id, body.marital_status_id as number));
  if (!row) throw new FieldValidationError({ marital_status_id: ['Alege regimul matrimonial.'] });
};

/**
 * The identity step is confirmed only when the last identity session is approved (or rejected with
 * all three photos and a complete profile, spec 000 §4.4) and profile and address are complete.
 */
const identityFile: StepRule = async ({ app, request }) => {
  const problem = await identityStepProblem(app.db, request.userId, request.profile);
  if (problem) throw new FieldValidationError({ verified: [problem] }, problem);
};

/** The chosen price must be one of the applicant's partner's prices, and the subscription not paid yet. */
const partnerPrice: StepRule = async ({ app, body, request }) => {
  const [price] = await app.db
    .select({ id: partnerPrices.id })
    .from(partnerPrices)
    .innerJoin(users, eq(users.partnerId, partnerPrices.partnerId))
    .where(and(eq(users.id, request.userId), eq(partnerPrices.stripePriceId, body.selected_stripe_id as string)));
  if (!price) throw new FieldValidationError({ selected_stripe_id: ['Alege unul dintre abonamentele afișate.'] });
  if (request.paid) throw new FieldValidationError({ selected_stripe_id: ['Abonamentul tău este deja plătit.'] });
};

export const STEP_RULES: Record<string, StepRule> = {
  '/api/registration/open': questionnaire,
  '/api/registration/existing/open': questionnaire,
  '/api/registration/collect/company': activity,
  '/api/registration/collect/civil-status': civilStatus,
  '/api/registration/confirm/identity-file': identityFile,
  '/api/registration/existing/confirm/identity-file': identityFile,
  ...Object.fromEntries(SIGNATURE_ENDPOINTS.map((endpoint) => [endpoint, signatureRule])),
  '/api/registration/collect/mailing-address-type': mailingAddressType,
  '/api/registration/collect/icredit-office': icreditOffice,
  '/api/registration/send': sendRule,
  [DOCUMENTS_ENDPOINT]: documentsRule,
  '/api/registration/collect/partner-price': partnerPrice,
  '/api/registration/existing/collect/partner-price': partnerPrice,
  [COLLECT_COMPANY_ENDPOINT]: collectCompany,
  [CONFIRM_COMPANY_ENDPOINT]: confirmCompany,
};
