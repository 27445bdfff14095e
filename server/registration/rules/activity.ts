import { eq } from 'drizzle-orm';
import { activities } from '../../db/schema';
import { FieldValidationError } from '../../lib/http-errors';
import { resolveFlow } from '../../../src/core/flow';
import { flowContext, type StepRule } from '../model';
import { activityCodes, overviewOptions, overviewStep } from '../overview';
import { stepOptions } from './options';

/**
 * The activity step (spec 001 §2 item 1): an active activity of the list; the step's
 * `unknownActivity` option names the "I don't know yet" activity, which needs a description.
 */
export const activity: StepRule = async ({ app, body, step, request, partner, flow }) => {
  const unknown = stepOptions(step).unknownActivity;
  const [row] = await app.db.select().from(activities).where(eq(activities.id, body.activity_id as number));
  if (!row || !row.isActive) throw new FieldValidationError({ activity_id: ['Alege o activitate din listă.'] });
  const details = typeof body.activity_details === 'string' ? body.activity_details.trim() : '';
  const isUnknown = typeof unknown === 'string' && row.code === unknown;
  if (isUnknown && !details) {
    throw new FieldValidationError({ activity_details: ['Descrie pe scurt activitatea pe care o vei avea.'] });
  }
  // The overview's primary CAEN code follows the activity (its default code), as the flow resolves for the new activity.
  const file = app.flows.flows.find((f) => f.id === flow.id);
  const formData = { ...request.formData, activity: row.code };
  const overview = file ? overviewStep(resolveFlow(file, flowContext({ ...request, formData }, partner))) : undefined;
  const codes = overview ? await activityCodes(app.db, request.formData, row.code, overviewOptions(overview)) : undefined;
  return { activity: row.code, activity_details: isUnknown ? details : null, ...(codes ? { codes } : {}) };
};
