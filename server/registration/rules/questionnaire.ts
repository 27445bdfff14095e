import { lostReasons } from '../../db/schema';
import { FieldValidationError } from '../../lib/http-errors';
import type { StepRule } from '../model';
import { stepOptions } from './options';

/**
 * The questionnaire (spec 001 §4 "Questionnaire"): every reason must be one the flow's
 * questionnaire shows, and only the step's `exclusive` answer ("Niciuna dintre acestea") lets the
 * applicant go on; any other answer leaves the flow through mark-as-lost.
 */
export const questionnaire: StepRule = async ({ app, body, request, step }) => {
  const reasons = body.reasons as string[];
  const exclusive = stepOptions(step, 'reasons').exclusive;
  const known = await app.db.select().from(lostReasons);
  const shown = new Set(known.filter((r) => r.questionnaireTypes.includes(request.registrationType)).map((r) => r.identifier));
  if (reasons.some((r) => !shown.has(r))) throw new FieldValidationError({ reasons: ['Opțiune necunoscută.'] });
  if (!(reasons.length === 1 && reasons[0] === exclusive)) {
    throw new FieldValidationError({
      reasons: ['Cu aceste opțiuni nu poți continua. „Niciuna dintre acestea” nu se poate bifa împreună cu alte opțiuni.'],
    });
  }
};
