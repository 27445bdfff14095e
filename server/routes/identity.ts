import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { stepsInfo, type Flow } from '../../src/core/flow';
import { identitySessions, processedWebhooks } from '../db/schema';
import { FieldValidationError, HttpError, notFound } from '../lib/http-errors';
import { isUploadedFile, multipartBody } from '../lib/multipart';
import type { UserRow } from '../lib/tokens';
import { staleStep } from '../registration/model';
import { loadRequest } from '../registration/serialize';
import {
  IDENTITY_MESSAGES,
  applyDecision,
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
import { decisionFromVeriff, signatureMatches, type VeriffVerification } from '../identity/veriff';
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

/** The raw body of each webhook request: the signature is over these exact bytes. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

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
   * X-HMAC-SIGNATURE over the raw body; a body already processed changes nothing (replay).
   */
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const raw = body as Buffer;
      rawBodies.set(request, raw);
      try {
        done(null, raw.length ? JSON.parse(raw.toString('utf8')) : {});
      } catch {
        done(new HttpError(400, 'Corpul cererii nu este JSON valid.'), undefined);
      }
    });

    webhook.post<{ Body: { verification: VeriffVerification } }>(
      '/veriff/decision-webhook',
      {
        // A decision carries extracted document data: more room than the API's 1 MiB JSON limit.
        bodyLimit: 5 * 1024 * 1024,
        onRequest: async () => {
          if (!app.config.veriffApiKey || !app.config.veriffSharedSecret) throw notFound();
        },
        preValidation: async (request) => {
          const raw = rawBodies.get(request);
          const client = header(request, 'x-auth-client') ?? header(request, 'vrf-auth-client');
          const signature = header(request, 'x-hmac-signature') ?? header(request, 'vrf-hmac-signature');
          if (!raw || client !== app.config.veriffApiKey || !signatureMatches(signature, raw, app.config.veriffSharedSecret!)) {
            throw new HttpError(401, 'Semnătura cererii nu este validă.');
          }
        },
        schema: { body: webhookBody, response: replies(NO_PAYLOAD) },
      },
      async (request) => {
        const digest = createHash('sha256').update(rawBodies.get(request)!).digest('hex');
        const [seen] = await app.db.select().from(processedWebhooks).where(eq(processedWebhooks.digest, digest));
        if (seen) return { message: 'Notificarea a fost deja procesată.', payload: null };
        const verification = request.body.verification;
        const [session] = await app.db.select().from(identitySessions).where(eq(identitySessions.sessionId, verification.id));
        const decision = decisionFromVeriff(verification);
        if (session && session.provider === 'veriff' && decision) await applyDecision(app, session, decision);
        await app.db.insert(processedWebhooks).values({ digest, provider: 'veriff' }).onConflictDoNothing();
        return { message: 'OK', payload: null };
      },
    );
  });
}) satisfies FastifyPluginAsync;
