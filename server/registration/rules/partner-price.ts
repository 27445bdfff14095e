import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { partnerPrices } from '../../db/schema';
import { FieldValidationError } from '../../lib/http-errors';
import type { StepRule } from '../model';

/**
 * The price lookup, prepared once per database (issue 14: the pricing step is the submit measured
 * by `npm run bench:api`; the query is not rebuilt by Drizzle on each call).
 */
function preparePriceLookup(db: Db) {
  return db
    .select({ id: partnerPrices.id })
    .from(partnerPrices)
    .where(and(eq(partnerPrices.partnerId, sql.placeholder('partnerId')), eq(partnerPrices.stripePriceId, sql.placeholder('stripeId'))))
    .prepare('partner_price_of_partner');
}
const priceLookups = new WeakMap<Db, ReturnType<typeof preparePriceLookup>>();

/** The chosen price must be one of the applicant's partner's prices, and the subscription not paid yet. */
export const partnerPrice: StepRule = async ({ app, body, request, partner }) => {
  let lookup = priceLookups.get(app.db);
  if (!lookup) priceLookups.set(app.db, (lookup = preparePriceLookup(app.db)));
  const [price] = await lookup.execute({ partnerId: partner.id, stripeId: body.selected_stripe_id as string });
  if (!price) throw new FieldValidationError({ selected_stripe_id: ['Alege unul dintre abonamentele afișate.'] });
  if (request.paid) throw new FieldValidationError({ selected_stripe_id: ['Abonamentul tău este deja plătit.'] });
};
