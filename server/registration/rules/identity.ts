import { FieldValidationError } from '../../lib/http-errors';
import { identityStepProblem } from '../../identity/queries';
import type { StepRule } from '../model';

/**
 * The identity step is confirmed only when the last identity session is approved (or rejected with
 * all three photos and a complete profile, spec 000 §4.4) and profile and address are complete.
 */
export const identity: StepRule = async ({ app, request }) => {
  const problem = await identityStepProblem(app.db, request.userId, request.profile);
  if (problem) throw new FieldValidationError({ verified: [problem] }, problem);
};
