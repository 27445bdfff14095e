import { eq } from 'drizzle-orm';
import { activities } from '../../db/schema';
import { FieldValidationError } from '../../lib/http-errors';
import type { StepRule } from '../model';
import { stepOptions } from './options';

/**
 * The activity step (spec 001 §2 item 1): an active activity of the list; the step's
 * `unknownActivity` option names the "I don't know yet" activity, which needs a description.
 */
export const activity: StepRule = async ({ app, body, step }) => {
  const unknown = stepOptions(step).unknownActivity;
  const [row] = await app.db.select().from(activities).where(eq(activities.id, body.activity_id as number));
  if (!row || !row.isActive) throw new FieldValidationError({ activity_id: ['Alege o activitate din listă.'] });
  const details = typeof body.activity_details === 'string' ? body.activity_details.trim() : '';
  const isUnknown = typeof unknown === 'string' && row.code === unknown;
  if (isUnknown && !details) {
    throw new FieldValidationError({ activity_details: ['Descrie pe scurt activitatea pe care o vei avea.'] });
  }
  return { activity: row.code, activity_details: isUnknown ? details : null };
};
