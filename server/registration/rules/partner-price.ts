import { FieldValidationError } from '../../lib/http-errors';
import type { StepRule } from '../model';

/**
 * The chosen price must be one of the applicant's partner's prices (read with the request: no
 * query of its own, issue 14), and the subscription not paid yet.
 */
export const partnerPrice: StepRule = async ({ body, request, prices }) => {
  if (!prices.some((p) => p.stripe_id === body.selected_stripe_id)) {
    throw new FieldValidationError({ selected_stripe_id: ['Alege unul dintre abonamentele afișate.'] });
  }
  if (request.paid) throw new FieldValidationError({ selected_stripe_id: ['Abonamentul tău este deja plătit.'] });
};
