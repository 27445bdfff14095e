import { eq } from 'drizzle-orm';
import { maritalStatuses } from '../../db/schema';
import { FieldValidationError } from '../../lib/http-errors';
import type { StepRule } from '../model';

/** The civil status step: a married applicant names a matrimonial regime of the list. */
export const civilStatus: StepRule = async ({ app, body }) => {
  if (body.is_married !== true) return { marital_status_id: null };
  const [row] = await app.db.select().from(maritalStatuses).where(eq(maritalStatuses.id, body.marital_status_id as number));
  if (!row) throw new FieldValidationError({ marital_status_id: ['Alege regimul matrimonial.'] });
};
