import { and, eq } from 'drizzle-orm';
import { partnerPrices } from '../../db/schema';
import { FieldValidationError } from '../../lib/http-errors';
import type { StepRule } from '../model';

/** The chosen price must be one of the applicant's partner's prices, and the subscription not paid yet. */
export const partnerPrice: StepRule = async ({ app, body, request, partner }) => {
  const [price] = await app.db
    .select({ id: partnerPrices.id })
    .from(partnerPrices)
    .where(and(eq(partnerPrices.partnerId, partner.id), eq(partnerPrices.stripePriceId, body.selected_stripe_id as string)));
  if (!price) throw new FieldValidationError({ selected_stripe_id: ['Alege unul dintre abonamentele afișate.'] });
  if (request.paid) throw new FieldValidationError({ selected_stripe_id: ['Abonamentul tău este deja plătit.'] });
};
