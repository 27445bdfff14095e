import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { currentStep, type Flow } from '../../src/core/flow';
import type { UserRow } from '../lib/tokens';
import { staleStep } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import { moveRequest } from '../registration/store';
import { SIGNATURE_MESSAGES, deleteSignatureFile, signatureFileIdOf } from '../registration/signature';
import { requestReplies } from '../lib/api-schemas';

type DeleteBody = { Body: { current_step_identifier?: string } };

const deleteSchema = {
  body: { type: 'object', properties: { current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 } } },
  response: requestReplies,
} as const;

/** A POST without a body is an empty object (the spec's delete call sends none). */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/**
 * Deleting the saved signature (spec 001 §7 `POST /api/registration[/existing]/delete/signature`):
 * only on the signature step of the user's own flow (another registration type: 403); a stale
 * `current_step_identifier` or a request that moved on answers 409 with the request. form_data
 * forgets the file first, then the file goes; answers the request as it now stands.
 */
export default (async (app) => {
  const deleteSignature = (flow: Flow) => async (request: FastifyRequest<DeleteBody>) => {
    const { request: row, resolved, serialize } = await loadRequest(app, request.user as UserRow, flow);
    const current = currentStep(resolved, row.step);
    const sent = request.body.current_step_identifier;
    if ((sent && sent !== current.id) || current.rule !== 'signature') throw staleStep(await serialize());
    const savedId = signatureFileIdOf(row.formData);
    if (savedId === null && row.formData.signature_file_id == null) return { message: SIGNATURE_MESSAGES.deleted, payload: await serialize() };
    const moved = await moveRequest(app.db, row, { step: row.step, formData: { ...row.formData, signature_file_id: null } });
    if (!moved) throw staleStep(await serialize());
    await deleteSignatureFile(app, row.userId, savedId);
    return { message: SIGNATURE_MESSAGES.deleted, payload: await serialize(moved) };
  };

  const options = { onRequest: app.authenticate, preValidation: emptyBody, schema: deleteSchema };
  app.post<DeleteBody>('/registration/delete/signature', options, deleteSignature(app.flows.byType[2]));
  app.post<DeleteBody>('/registration/existing/delete/signature', options, deleteSignature(app.flows.byType[1]));
}) satisfies FastifyPluginAsync;
