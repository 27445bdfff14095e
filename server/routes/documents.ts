import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { currentStep } from '../../src/core/flow';
import { userMeta } from '../db/schema';
import { notFound } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { staleStep } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import { moveRequest } from '../registration/store';
import { DOCUMENT_MESSAGES, deleteRequestDocument } from '../registration/documents';
import { dbId } from '../lib/input-limits';
import { obj, replies, requestReplies, str } from '../lib/api-schemas';

type DeleteBody = { Body: { file_id: number; current_step_identifier?: string } };

const deleteSchema = {
  body: {
    type: 'object',
    required: ['file_id'],
    properties: {
      file_id: dbId,
      current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 },
    },
  },
  response: requestReplies,
} as const;

export const ATTORNEY_META_KEY = 'attorney_acknowledged_at';

/** A POST without a body is an empty object. */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/**
 * The documents step's own calls (spec 001 §7):
 * - `POST /api/registration/delete/diploma-documents` `{ file_id }`: removes one document of the
 *   user's new-company request, only while the request is at the documents step (else 409 with the
 *   request); a file that is not the request's answers 404. Removing the last licence file while
 *   driver_license_status is 2 sets it back to 1 (§4). Answers the request.
 * - `POST /api/user-meta/attorney-acknowledgement`: records once (user_meta
 *   `attorney_acknowledged_at`) that the user saw the power-of-attorney screen; answers
 *   `{ acknowledged_at }`, the first time it was recorded.
 */
export default (async (app) => {
  app.post<DeleteBody>('/registration/delete/diploma-documents', { onRequest: app.authenticate, schema: deleteSchema }, async (request) => {
    const { request: row, resolved, serialize } = await loadRequest(app, request.user as UserRow, app.flows.byType[2]);
    const current = currentStep(resolved, row.step);
    const sent = request.body.current_step_identifier;
    if ((sent && sent !== current.id) || current.rule !== 'documents') throw staleStep(await serialize());
    const removed = await deleteRequestDocument(app, row, request.body.file_id);
    if (!removed) throw notFound(DOCUMENT_MESSAGES.notFound);
    if (!removed.licenceBackToLater) return { message: DOCUMENT_MESSAGES.deleted, payload: await serialize() };
    const moved = await moveRequest(app.db, row, { step: row.step, formData: { ...row.formData, driver_license_status: 1 } });
    if (!moved) throw staleStep(await serialize());
    return { message: DOCUMENT_MESSAGES.deleted, payload: await serialize(moved) };
  });

  app.post(
    '/user-meta/attorney-acknowledgement',
    { onRequest: app.authenticate, preValidation: emptyBody, schema: { body: { type: 'object' }, response: replies(obj({ acknowledged_at: str }), 'When the user first saw the power-of-attorney screen') } },
    async (request) => {
      const userId = (request.user as UserRow).id;
      const where = and(eq(userMeta.userId, userId), eq(userMeta.metaKey, ATTORNEY_META_KEY));
      const first = async () => (await app.db.select().from(userMeta).where(where).orderBy(asc(userMeta.id)).limit(1))[0];
      let row = await first();
      if (!row) {
        await app.db.insert(userMeta).values({ userId, metaKey: ATTORNEY_META_KEY, metaValue: new Date().toISOString() });
        row = await first();
      }
      return { message: '', payload: { acknowledged_at: row.metaValue } };
    },
  );
}) satisfies FastifyPluginAsync;
