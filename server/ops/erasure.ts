import type { FastifyInstance } from 'fastify';
import { HttpError } from '../lib/http-errors';
import { describeErasure, eraseAccount, userIdByEmail } from '../privacy/erase';
import { OPS_MESSAGES } from './messages';

/**
 * `npm run ops -- erase <e-mail> [--yes]` (issue 32, GDPR art. 17 by written request): without
 * `erase` only says what would go and what the law keeps; with it, erases the account as the
 * applicant's own erasure does (server/privacy/erase.ts), the audit entry naming the operator.
 * No such account: 404.
 */
export async function eraseOnRequest(app: FastifyInstance, email: string, erase: boolean | undefined, operator: string) {
  const userId = await userIdByEmail(app.db, email);
  if (userId === null) throw new HttpError(404, OPS_MESSAGES.noAccount(email));
  if (!erase) {
    const plan = await describeErasure(app.db, userId, app.config);
    if (!plan) throw new HttpError(404, OPS_MESSAGES.noAccount(email));
    return { message: '', payload: { email, erased: false, goes: plan.goes, kept: plan.kept, files_deleted: 0 } };
  }
  const done = await eraseAccount(app, userId, { by: 'operator', actor: operator });
  if (!done) throw new HttpError(404, OPS_MESSAGES.noAccount(email));
  return { message: OPS_MESSAGES.erased, payload: { email, erased: true, goes: done.goes, kept: done.kept, files_deleted: done.filesDeleted } };
}
