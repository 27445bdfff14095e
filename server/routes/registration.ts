import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Flow } from '../../src/core/flow';
import { multipartBody } from '../lib/multipart';
import { unauthorized } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { requestReplies } from '../lib/api-schemas';
import { bearerToken } from '../plugins/auth';
import type { FlowRegistry } from '../flows/registry';
import { createRegistrationService, type RequestAtStep } from '../registration/service';
import type { SignedInRequest } from '../registration/store';
import { checkRuleNames, stepBody, stepBodySchema, stepEndpoints } from '../registration/step-endpoints';
import { keepOpenAnswer, readOpenFromCache, type OpenRead } from '../registration/open-read';
import { loadSignedDocumentTemplates } from '../registration/signed-documents';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the registration routes' session check read with the token (the request, its partner), until the call loads it. */
    registrationSession: SignedInRequest | null;
    /** The request at the step a step call is for, once its stale check passed. */
    registrationStep: RequestAtStep | null;
    /** The open call's read of the read cache, for keeping its answer. */
    registrationOpenRead: OpenRead | null;
  }
}

const previousBody = {
  type: 'object',
  properties: { current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

type Body = Record<string, unknown> & { current_step_identifier: string };

/** Limits of a step's files (a signature PNG, diploma documents): each rule checks content and type. */
const STEP_UPLOADS = {
  fileFields: ['file', 'files', 'driverLicenseFiles'],
  maxFileBytes: 10 * 1024 * 1024,
  maxFiles: 10,
  tooLarge: 'Fișierul poate avea cel mult 10 MB.',
  tooMany: 'Poți trimite cel mult 10 fișiere odată.',
};

/**
 * The wizard's calls of each flow file (open, previous, next, and each step's endpoint): schemas,
 * hooks and a call into the registration service (server/registration/service.ts), which does the work.
 * A step call's hooks run in this order: the session check (`signedIn`, with the request in the same
 * query), the stale check (preValidation: 409 before the body meets the step's schema), the schema
 * (422), then the service's submit (the step's rule, the write).
 */
export default (async (app, options: { registry: FlowRegistry }) => {
  const { registry } = options;
  const service = createRegistrationService(app, registry);
  // The signed documents' templates (content/documents/): a broken one stops the start, not a send.
  loadSignedDocumentTemplates();
  app.decorateRequest('registrationSession', null);
  app.decorateRequest('registrationStep', null);
  app.decorateRequest('registrationOpenRead', null);

  /** The session check of a registration call (`app.authenticate`'s 401), reading the user's request of the flow with it. */
  function signedIn(flow: Flow, options: { withExtras?: boolean } = {}) {
    return async (request: FastifyRequest) => {
      const secret = bearerToken(request);
      if (!secret) throw unauthorized();
      const found = await service.signIn(flow, secret, options);
      if (!found) throw unauthorized();
      request.user = found.user;
      request.tokenId = found.token.id;
      request.registrationSession = found;
    };
  }

  /** The call's request: what `signedIn` read (used once), else read now. */
  function load(request: FastifyRequest, flow: Flow) {
    const session = request.registrationSession;
    request.registrationSession = null;
    return service.load(flow, request.user as UserRow, session);
  }

  /**
   * The stale check of a step's endpoint, at preValidation: a call for another step answers 409
   * whatever its fields. A body whose step identifier is not a string yet goes on to the schema
   * (422, or a multipart endpoint's coercion makes it one: then the handler checks it, still once).
   */
  function notStale(flow: Flow, endpoint: string) {
    return async (request: FastifyRequest) => {
      const sent = (request.body as { current_step_identifier?: unknown } | null | undefined)?.current_step_identifier;
      if (typeof sent === 'string') request.registrationStep = await service.atStep(await load(request, flow), sent, endpoint);
    };
  }

  /** preHandler of the open routes, before `signedIn`: the answer from the read cache when it holds a live one. */
  function fromCache(flow: Flow) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const secret = bearerToken(request);
      if (!secret) return;
      const { read, body } = await readOpenFromCache(app, flow.registrationType, secret);
      request.registrationOpenRead = read;
      if (body === null) return;
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.send(body);
      return reply;
    };
  }

  for (const flow of registry.flows) {
    checkRuleNames(flow);
    app.get(
      flow.api.open.replace(/^\/api/, ''),
      { preHandler: [fromCache(flow), signedIn(flow, { withExtras: true })], schema: { querystring: { type: 'object', properties: { timestamp: { type: 'integer' }, no_next_step: {} } }, response: requestReplies } },
      async (request, reply) => {
        const session = request.registrationSession;
        const answer = await service.open(await load(request, flow));
        if (session && request.registrationOpenRead) keepOpenAnswer(app, reply, request.registrationOpenRead, session);
        return answer;
      },
    );

    /** Back one step (spec: previous-step call). An optional current_step_identifier guards double clicks. */
    app.post<{ Body: { current_step_identifier?: string } }>(
      flow.api.previous.replace(/^\/api/, ''),
      { onRequest: signedIn(flow), schema: { body: previousBody, response: requestReplies } },
      async (request) => service.back(await service.atStep(await load(request, flow), request.body?.current_step_identifier || null)),
    );

    /** Forward over a step whose data the request already holds (e.g. after going back). */
    app.post<{ Body: Body }>(flow.api.next.replace(/^\/api/, ''), { onRequest: signedIn(flow), schema: { body: stepBody, response: requestReplies } }, async (request) =>
      service.next(await service.atStep(await load(request, flow), request.body.current_step_identifier)),
    );

    for (const [endpoint, { schema: schemaId, multipart, lookup }] of stepEndpoints(flow)) {
      // Multipart: sign-in (then the per-address upload limit) is checked before the body is read.
      // Sign-in first; a call for a step the request is not at answers 409 before the body meets the step's schema.
      const hooks = multipart
        ? { onRequest: [app.authenticate, app.addressLimit.upload], preValidation: [multipartBody(STEP_UPLOADS), notStale(flow, endpoint)] }
        : lookup
          ? // Every lookup submitted counts, a malformed fiscal code too (before the schema).
            { onRequest: signedIn(flow), preValidation: [app.addressLimit.companyLookup, notStale(flow, endpoint)] }
          : { onRequest: signedIn(flow), preValidation: notStale(flow, endpoint) };
      const schema = {
        body: stepBodySchema(schemaId),
        response: requestReplies,
        // For the OpenAPI document: steps with files are sent as multipart (JSON is taken too).
        ...(multipart ? { consumes: ['multipart/form-data', 'application/json'] } : {}),
      };
      // The step schemas' own Ajv (server/flows/registry.ts): JSON is taken as typed (no coercion: null is
      // not 0); multipart text fields take the schema's types (is_married "true" → true).
      const validatorCompiler = registry.validatorCompiler({ coerce: multipart });
      app.post<{ Body: Body }>(endpoint.replace(/^\/api/, ''), { ...hooks, schema, validatorCompiler }, async (request) => {
        const at = request.registrationStep ?? (await service.atStep(await load(request, flow), request.body.current_step_identifier, endpoint));
        return service.submit(at, request.body, (request.user as UserRow).email);
      });
    }
  }
}) satisfies FastifyPluginAsync<{ registry: FlowRegistry }>;
