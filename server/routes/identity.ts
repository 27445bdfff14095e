import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { stepsInfo, type Flow } from '../../src/core/flow';
import { FieldValidationError } from '../lib/http-errors';
import { isUploadedFile, multipartBody } from '../lib/multipart';
import type { UserRow } from '../lib/tokens';
import { staleStep } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import {
  IDENTITY_MESSAGES,
  createSession,
  deleteCurrentSession,
  deleteSession,
  lastSessionView,
  ownedSession,
  refreshStatus,
  sessionError,
  submitSession,
  uploadImage,
} from '../identity/service';
import { IDENTITY_CONTEXTS, type IdentityContext } from '../identity/types';
import type { VeriffVerification } from '../identity/veriff';
import { handleVeriffDecision, readVeriffBody, veriffConfigured, veriffSigned } from '../identity/webhook';
import { DB_INT_MAX, DB_INT_MIN } from '../lib/input-limits';
import { bool, int, NO_PAYLOAD, nullable, nullInt, nullStr, obj, replies, requestReplies, str } from '../lib/api-schemas';

/** A session's status: 1 created, 2 approved, 3 rejected, 4 submitted (IdentityStatus in server/identity/types.ts). */
const status = { type: 'integer', enum: [1, 2, 3, 4] } as const;
const uploadRef = nullable(obj({ file_id: int, preview_url: str }));
const lastSession = nullable(
  obj({
    session_id: str,
    custom_id: str,
    status,
    submitted: bool,
    uploads: obj({ 'document-front': uploadRef, 'document-back': uploadRef, face: uploadRef }),
  }),
);

const id = { type: 'string', minLength: 1, maxLength: 100 } as const;

const sessionBody = { type: 'object', required: ['session_id'], properties: { session_id: id } } as const;
const sessionAndCustom = { type: 'object', required: ['session_id', 'custom_id'], properties: { session_id: id, custom_id: id } } as const;
const noBody = { type: 'object', properties: {} } as const;

/** A POST without a body is an empty object (Fastify would refuse `undefined` against an object schema). */
async function emptyBody(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

const webhookBody = {
  type: 'object',
  required: ['verification'],
  properties: {
    status: { type: 'string', maxLength: 50 },
    verification: {
      type: 'object',
      required: ['id', 'status'],
      properties: {
        id,
        status: { type: 'string', maxLength: 50 },
        code: { type: ['integer', 'null'], minimum: DB_INT_MIN, maximum: DB_INT_MAX },
        reason: { type: ['string', 'null'] },
        reasonCode: { anyOf: [{ type: 'integer', minimum: DB_INT_MIN, maximum: DB_INT_MAX }, { type: 'string' }, { type: 'null' }] },
        decisionTime: { type: ['string', 'null'] },
        vendorData: { type: ['string', 'null'] },
        person: { type: ['object', 'null'] },
      },
    },
  },
} as const;

/**
 * Identity verification (spec 001 §7 "Identity verification provider calls"): the browser talks to
 * these routes only; they talk to the provider (Veriff or the simulator). A session of another user
 * is "not found" (404, code VERIFF_SESSION_NOT_FOUND).
 */
export default (async (app) => {
  const auth = { onRequest: app.authenticate };
  const user = (request: FastifyRequest) => request.user as UserRow;

  app.post('/veriff/create-veriff-session', { onRequest: [app.authenticate, app.addressLimit.identitySession], preValidation: emptyBody, schema: { body: noBody, response: replies(obj({ session_id: str, custom_id: str, status }), 'The new session') } }, async (request) => {
    const session = await createSession(app, user(request).id);
    return { message: '', payload: { session_id: session.sessionId, custom_id: session.customId, status: session.status } };
  });

  app.post<{ Body: { session_id: string; context: IdentityContext; media_file: unknown } }>(
    '/veriff/upload-image',
    {
      onRequest: [app.authenticate, app.addressLimit.upload],
      preValidation: multipartBody({
        fileFields: ['media_file'],
        maxFileBytes: app.config.idvMaxUploadBytes,
        maxFiles: 1,
        tooLarge: IDENTITY_MESSAGES.tooLarge(app.config.idvMaxUploadBytes),
        tooMany: IDENTITY_MESSAGES.tooMany,
      }),
      schema: {
        body: {
          type: 'object',
          required: ['session_id', 'context', 'media_file'],
          properties: {
            session_id: id,
            context: { type: 'string', enum: [...IDENTITY_CONTEXTS] },
            media_file: { type: 'object' },
          },
        },
        response: replies(obj({ context: { type: 'string', enum: [...IDENTITY_CONTEXTS] }, file_id: int, preview_url: str }), 'The stored photo'),
      },
    },
    async (request) => {
      const file = request.body.media_file;
      if (!isUploadedFile(file)) throw new FieldValidationError({ media_file: ['Câmpul este obligatoriu.'] });
      const result = await uploadImage(app, user(request).id, { sessionId: request.body.session_id, context: request.body.context, file });
      return { message: '', payload: result };
    },
  );

  app.patch<{ Body: { session_id: string } }>('/veriff/submit-session', { ...auth, schema: { body: sessionBody, response: replies(obj({ status })) } }, async (request) => {
    const session = await submitSession(app, user(request).id, request.body.session_id);
    return { message: '', payload: { status: session.status } };
  });

  app.get<{ Querystring: { session_id: string; custom_id: string } }>(
    '/veriff/verify-veriff-session',
    { ...auth, schema: { querystring: sessionAndCustom, response: replies(obj({ status })) } },
    async (request) => {
      const session = await refreshStatus(app, user(request).id, request.query.session_id, request.query.custom_id);
      return { message: '', payload: { status: session.status } };
    },
  );

  app.get('/veriff/get-last-session', { ...auth, schema: { querystring: { type: 'object', properties: {} }, response: replies(lastSession, 'The newest session not deleted, or null') } }, async (request) => {
    return { message: '', payload: await lastSessionView(app.db, user(request).id) };
  });

  app.get<{ Querystring: { session_id: string; custom_id: string } }>(
    '/veriff/get-veriff-error',
    { ...auth, schema: { querystring: sessionAndCustom, response: replies(obj({ code: nullInt, translated_reason: nullStr }), 'Why the session was rejected (nulls otherwise)') } },
    async (request) => {
      const session = await ownedSession(app, user(request).id, request.query.session_id, request.query.custom_id);
      return { message: '', payload: sessionError(session) };
    },
  );

  app.delete<{ Body: { session_id: string; custom_id: string } }>(
    '/veriff/delete-session',
    { ...auth, schema: { body: sessionAndCustom, response: replies(NO_PAYLOAD) } },
    async (request) => {
      const session = await ownedSession(app, user(request).id, request.body.session_id, request.body.custom_id);
      await deleteSession(app, session);
      return { message: IDENTITY_MESSAGES.deleted, payload: null };
    },
  );

  /** Delete-and-restart from the identity step: the user's current session and its photos; answers the request. */
  const deleteDocument = (flow: Flow) => async (request: FastifyRequest<{ Body: { current_step_identifier?: string } }>) => {
    const { request: row, resolved, serialize } = await loadRequest(app, user(request), flow);
    const sent = request.body.current_step_identifier;
    if (sent && sent !== stepsInfo(resolved, row.step).current.identifier) throw staleStep(await serialize());
    await deleteCurrentSession(app, row.userId);
    return { message: IDENTITY_MESSAGES.deleted, payload: await serialize() };
  };
  const deleteDocumentSchema = { body: { type: 'object', properties: { current_step_identifier: id } }, response: requestReplies } as const;
  type DeleteBody = { Body: { current_step_identifier?: string } };
  app.post<DeleteBody>('/registration/delete/identity-document', { ...auth, preValidation: emptyBody, schema: deleteDocumentSchema }, deleteDocument(app.flows.byType[2]));
  app.post<DeleteBody>(
    '/registration/existing/delete/identity-document',
    { ...auth, preValidation: emptyBody, schema: deleteDocumentSchema },
    deleteDocument(app.flows.byType[1]),
  );

  /**
   * Veriff's decision webhook (public): accepted only with our API key in X-AUTH-CLIENT and a valid
   * X-HMAC-SIGNATURE over the raw body; a body already processed changes nothing (replay)
   * (server/identity/webhook.ts).
   */
  await app.register(async (webhook) => {
    webhook.decorateRequest('veriffRawBody', null);
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, readVeriffBody);

    webhook.post<{ Body: { verification: VeriffVerification } }>(
      '/veriff/decision-webhook',
      {
        // A decision carries extracted document data: more room than the API's 1 MiB JSON limit.
        bodyLimit: 5 * 1024 * 1024,
        onRequest: veriffConfigured(app),
        preValidation: veriffSigned(app),
        schema: { body: webhookBody, response: replies(NO_PAYLOAD) },
      },
      async (request) => ({ message: await handleVeriffDecision(app, request.veriffRawBody!, request.body.verification), payload: null }),
    );
  });
}) satisfies FastifyPluginAsync;
