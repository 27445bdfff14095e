import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { resolveFlow, stepsInfo, storedStepData, type Flow, type FlowStep } from '../../src/core/flow';
import { fieldErrorsFromValidation, FieldValidationError } from '../lib/http-errors';
import { isUploadedFile, multipartBody, type UploadedFile } from '../lib/multipart';
import type { UserRow } from '../lib/tokens';
import { flowContext, staleStep } from '../registration/model';
import { loadRequest, loadSignedInRequest } from '../registration/serialize';
import { moveRequestWithExtras, signedInRequest, type SignedInRequest } from '../registration/store';
import { bearerToken } from '../plugins/auth';
import { unauthorized } from '../lib/http-errors';
import { ruleOf, STEP_RULES } from '../registration/step-rules';
import { loadSignedDocumentTemplates, prepareSignedDocuments, removeSupersededDocuments, sendsDossier } from '../registration/signed-documents';
import { deleteFiles } from '../files/files';
import type { FlowRegistry } from '../flows/registry';
import { requestReplies } from '../lib/api-schemas';
import { touchAccessToken, TOUCH_INTERVAL_MS } from '../lib/tokens';
import { readCacheKey, sessionLive, touchDue } from '../registration/read-cache';

/** steps/next at a step with `submit.advance: false` (only the pricing step: the payment moves it on). */
const STEP_LEFT_BY_ITSELF = 'Acest pas se încheie cu plata: alege abonamentul și plătește pentru a merge mai departe.';

const stepBody = {
  type: 'object',
  required: ['current_step_identifier'],
  properties: { current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

const previousBody = {
  type: 'object',
  properties: { current_step_identifier: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

type Body = Record<string, unknown> & { current_step_identifier: string };

/** Every endpoint a ready step submits to, in the base flow or in any variant of it. */
function readyEndpoints(flow: Flow): string[] {
  const ready = new Map(flow.steps.filter((s) => s.status !== 'pending').map((s) => [s.id, s]));
  const endpoints = new Set([...ready.values()].map((s) => s.submit.endpoint));
  for (const variant of flow.variants ?? []) {
    for (const [stepId, patch] of Object.entries(variant.steps)) {
      if (ready.has(stepId) && patch?.submit?.endpoint) endpoints.add(patch.submit.endpoint);
    }
  }
  return [...endpoints];
}

/** The step schema (`schemas/`, registered once with addSchema by the flows plugin) each ready endpoint's body follows. */
function endpointSchemas(flow: Flow): Map<string, string> {
  const bySchema = new Map<string, string>();
  const ready = flow.steps.filter((s) => s.status !== 'pending');
  for (const step of ready) bySchema.set(step.submit.endpoint, step.schema);
  for (const variant of flow.variants ?? []) {
    for (const [stepId, patch] of Object.entries(variant.steps)) {
      const base = ready.find((s) => s.id === stepId);
      if (base && patch?.submit?.endpoint) bySchema.set(patch.submit.endpoint, patch.schema ?? base.schema);
    }
  }
  return bySchema;
}

/** A step's body: its schema by `$id`, plus the step it was sent for. */
export function stepBodySchema(schemaId: string) {
  return { allOf: [stepBody, { $ref: `${schemaId}#` }] };
}

/** Every step of the flow with each variant's patch of it (what a request may see of the step). */
function stepVersions(flow: Flow): Partial<FlowStep>[] {
  return [...flow.steps, ...(flow.variants ?? []).flatMap((v) => Object.values(v.steps).filter((p): p is Partial<FlowStep> => p !== null))];
}

/** A flow that names a rule the server does not have is refused at start (flows:check says it earlier). */
function checkRuleNames(flow: Flow): void {
  for (const step of stepVersions(flow)) {
    if (step.rule !== undefined && !Object.hasOwn(STEP_RULES, step.rule)) {
      throw new Error(`flow ${flow.id}: step ${step.id ?? '(variant)'} names the rule "${step.rule}", which server/registration/step-rules.ts does not have`);
    }
  }
}

/** Endpoints of the steps whose rule looks a company up (the per-address lookup limit applies). */
function lookupEndpoints(flow: Flow): Set<string> {
  const endpoints = new Set<string>();
  for (const step of flow.steps) {
    const patches = (flow.variants ?? []).map((v) => v.steps[step.id]).filter((p): p is Partial<FlowStep> => !!p);
    for (const version of [step, ...patches]) {
      const rule = version.rule ?? step.rule;
      const endpoint = version.submit?.endpoint ?? step.submit.endpoint;
      if (rule === 'fiscal-code') endpoints.add(endpoint);
    }
  }
  return endpoints;
}

/** Endpoints of steps that submit files (`submit.encoding: "multipart"`), in the base flow or a variant. */
function multipartEndpoints(flow: Flow): Set<string> {
  const endpoints = new Set(flow.steps.filter((s) => s.submit.encoding === 'multipart').map((s) => s.submit.endpoint));
  for (const variant of flow.variants ?? []) {
    for (const patch of Object.values(variant.steps)) {
      if (patch?.submit?.encoding === 'multipart' && patch.submit.endpoint) endpoints.add(patch.submit.endpoint);
    }
  }
  return endpoints;
}

/** Limits of a step's files (a signature PNG, diploma documents): each rule checks content and type. */
const STEP_UPLOADS = {
  fileFields: ['file', 'files', 'driverLicenseFiles'],
  maxFileBytes: 10 * 1024 * 1024,
  maxFiles: 10,
  tooLarge: 'Fișierul poate avea cel mult 10 MB.',
  tooMany: 'Poți trimite cel mult 10 fișiere odată.',
};

export default (async (app, options: { registry: FlowRegistry }) => {
  const { registry } = options;
  // The signed documents' templates (content/documents/): a broken one stops the start, not a send.
  loadSignedDocumentTemplates();

  /** Data the request already holds (steps/next), checked against its step's schema by the same Ajv as the step's body. */
  function validateStep(step: FlowStep, data: unknown): void {
    const errors = registry.validate(step.schema, data);
    if (errors) {
      throw new FieldValidationError(fieldErrorsFromValidation({ validation: errors } as never), undefined, errors as unknown[]);
    }
  }

  /** What `signedIn` read with the session, taken once by `load`. */
  const sessions = new WeakMap<FastifyRequest, SignedInRequest>();

  /**
   * The session check of a registration call (`app.authenticate`'s 401, the same live-token
   * condition) that also reads the user's request of the flow with its partner, and with
   * `withExtras` what its answer carries: one query for both (issue 14), kept for `load`.
   */
  function signedIn(flow: Flow, options: { withExtras?: boolean } = {}) {
    return async (request: FastifyRequest) => {
      const secret = bearerToken(request);
      if (!secret) throw unauthorized();
      const found = await signedInRequest(app.db, secret, app.config.accessTokenIdleMinutes, flow.registrationType, options);
      if (!found) throw unauthorized();
      request.user = found.user;
      request.tokenId = found.token.id;
      sessions.set(request, found);
    };
  }

  /** The call's request: what `signedIn` read (used once), else read now. */
  function load(request: FastifyRequest, flow: Flow) {
    const found = sessions.get(request);
    if (!found) return loadRequest(app, request.user as UserRow, flow);
    sessions.delete(request);
    return loadSignedInRequest(app, found, flow);
  }

  /** What notStale loaded, for the handler (one read of the request per call). */
  const checked = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof loadRequest>>>();

  /**
   * preValidation of a step's endpoint: sent for another step than the one the request stands at
   * (stale tab, double click), the call answers 409 with where the request is, whatever its fields.
   * A body without a step identifier goes on to the schema (422).
   */
  function notStale(flow: Flow, endpoint: string) {
    return async (request: FastifyRequest) => {
      const sent = (request.body as { current_step_identifier?: unknown } | null | undefined)?.current_step_identifier;
      if (typeof sent !== 'string') return;
      const loaded = await load(request, flow);
      const step = loaded.resolved.steps[stepsInfo(loaded.resolved, loaded.request.step).current.index];
      if (sent !== step.id || step.submit.endpoint !== endpoint) throw staleStep(await loaded.serialize());
      checked.set(request, loaded);
    };
  }

  /** The read cache's key of an open call and when its read started (server/registration/read-cache.ts). */
  const openReads = new WeakMap<FastifyRequest, { key: string; started: number; at: number }>();

  /**
   * preHandler of the open routes, before `signedIn`: the answer from the read cache when it holds
   * one for this token and flow and the token is still live by the entry's times (expiry, idle);
   * its last use is written when due, as on a database read. Otherwise `signedIn` reads it.
   */
  function fromCache(flow: Flow) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const cache = app.readCache;
      const secret = cache && bearerToken(request);
      if (!cache || !secret) return;
      const key = readCacheKey(flow.registrationType, secret);
      const now = Date.now();
      openReads.set(request, { key, started: cache.begin(), at: now });
      const entry = cache.get(key, now);
      if (!entry) return;
      if (!sessionLive(entry, now, app.config.accessTokenIdleMinutes)) {
        cache.delete(key);
        return;
      }
      if (touchDue(entry, now)) {
        await touchAccessToken(app.db, { id: entry.tokenId, lastUsedAt: entry.lastUsedAt === null ? null : new Date(entry.lastUsedAt) }, new Date(now));
        entry.lastUsedAt = now;
      }
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.send(entry.body);
      return reply;
    };
  }

  for (const flow of registry.flows) {
    checkRuleNames(flow);
    app.get(
      flow.api.open.replace(/^\/api/, ''),
      { preHandler: [fromCache(flow), signedIn(flow, { withExtras: true })], schema: { querystring: { type: 'object', properties: { timestamp: { type: 'integer' }, no_next_step: {} } }, response: requestReplies } },
      async (request, reply) => {
        const found = sessions.get(request);
        const answer = { message: '', payload: await (await load(request, flow)).serialize() };
        const read = openReads.get(request);
        if (found && read) {
          const { token } = found;
          // signedInRequest wrote the token's last use when it was due (touchAccessToken).
          const lastUsedAt = token.lastUsedAt && token.lastUsedAt.getTime() >= read.at - TOUCH_INTERVAL_MS ? token.lastUsedAt.getTime() : read.at;
          app.keepAnswer(reply, read.key, read.started, {
            tokenId: token.id,
            userId: found.user.id,
            createdAt: token.createdAt.getTime(),
            lastUsedAt,
            expiresAt: token.expiresAt?.getTime() ?? null,
          });
        }
        return answer;
      },
    );

    /** Back one step (spec: previous-step call). An optional current_step_identifier guards double clicks. */
    app.post<{ Body: { current_step_identifier?: string } }>(
      flow.api.previous.replace(/^\/api/, ''),
      { preHandler: signedIn(flow), schema: { body: previousBody, response: requestReplies } },
      async (request) => {
        const { request: row, partner, resolved, serialize } = await load(request, flow);
        const info = stepsInfo(resolved, row.step);
        const sent = request.body?.current_step_identifier;
        if (sent && sent !== info.current.identifier) throw staleStep(await serialize());
        if (!info.previous) return { message: '', payload: await serialize() };
        const moved = await moveRequestWithExtras(app.db, row, partner.id, { step: info.previous.identifier });
        if (!moved) throw staleStep(await serialize());
        return { message: '', payload: await serialize(moved.request, undefined, moved.extras) };
      },
    );

    /** Forward over a step whose data the request already holds (e.g. after going back). */
    app.post<{ Body: Body }>(flow.api.next.replace(/^\/api/, ''), { preHandler: signedIn(flow), schema: { body: stepBody, response: requestReplies } }, async (request) => {
      const { request: row, partner, prices, resolved, serialize } = await load(request, flow);
      const info = stepsInfo(resolved, row.step);
      if (request.body.current_step_identifier !== info.current.identifier) throw staleStep(await serialize());
      const step = resolved.steps[info.current.index];
      if (step.status === 'pending' || !step.submit.store) {
        throw new FieldValidationError({ current_step_identifier: ['Completează pasul curent pentru a merge mai departe.'] });
      }
      // A step that something else leaves (the pricing step: the payment) is never stepped over.
      if (step.submit.advance === false) {
        throw new FieldValidationError({ current_step_identifier: [STEP_LEFT_BY_ITSELF] });
      }
      const stored = storedStepData(step, row.formData);
      validateStep(step, stored);
      // What the database knows may have changed since (a deleted identity session): check again.
      await ruleOf(step)?.({ app, body: stored, request: row, files: {}, partner, prices, step, flow: resolved });
      if (!info.next) return { message: '', payload: await serialize() };
      const moved = await moveRequestWithExtras(app.db, row, partner.id, { step: info.next.identifier });
      if (!moved) throw staleStep(await serialize());
      return { message: '', payload: await serialize(moved.request, undefined, moved.extras) };
    });

    const multipart = multipartEndpoints(flow);
    const schemas = endpointSchemas(flow);
    const lookups = lookupEndpoints(flow);
    for (const endpoint of readyEndpoints(flow)) {
      // Multipart: sign-in (then the per-address upload limit) is checked before the body is read.
      // Sign-in first; a call for a step the request is not at answers 409 before the body meets the step's schema.
      const files = multipart.has(endpoint)
        ? { onRequest: [app.authenticate, app.addressLimit.upload], preValidation: [multipartBody(STEP_UPLOADS), notStale(flow, endpoint)] }
        : lookups.has(endpoint)
          ? // Every lookup submitted counts, a malformed fiscal code too (before the schema).
            { onRequest: signedIn(flow), preValidation: [app.addressLimit.companyLookup, notStale(flow, endpoint)] }
          : { onRequest: signedIn(flow), preValidation: notStale(flow, endpoint) };
      const schema = {
        body: stepBodySchema(schemas.get(endpoint) as string),
        response: requestReplies,
        // For the OpenAPI document: steps with files are sent as multipart (JSON is taken too).
        ...(multipart.has(endpoint) ? { consumes: ['multipart/form-data', 'application/json'] } : {}),
      };
      // The step schemas' own Ajv (server/flows/registry.ts): JSON is taken as typed (no coercion: null is
      // not 0); multipart text fields take the schema's types (is_married "true" → true).
      const validatorCompiler = registry.validatorCompiler({ coerce: multipart.has(endpoint) });
      app.post<{ Body: Body }>(endpoint.replace(/^\/api/, ''), { ...files, schema, validatorCompiler }, async (request) => {
        const { request: row, partner, prices, resolved, serialize } = checked.get(request) ?? (await load(request, flow));
        const info = stepsInfo(resolved, row.step);
        const step = resolved.steps[info.current.index];
        // Stale tab, double click, or a call for another step: nothing changes, the browser is told where the request is.
        if (request.body.current_step_identifier !== step.id || step.submit.endpoint !== endpoint) throw staleStep(await serialize());
        const { current_step_identifier: _ignored, ...fields } = request.body;
        void _ignored;
        // Uploaded files go to the step's rule; the JSON Schema sees the other fields.
        const uploads = Object.fromEntries(Object.entries(fields).filter(([, v]) => isUploadedFile(v))) as Record<string, UploadedFile>;
        const data = Object.fromEntries(Object.entries(fields).filter(([, v]) => !isUploadedFile(v)));
        // The body was checked against the step's schema (multipart text fields took its types: is_married "true" → true).
        const extra = (await ruleOf(step)?.({ app, body: data, request: row, files: uploads, partner, prices, step, flow: resolved })) ?? {};
        const formData = { ...row.formData };
        for (const [formKey, bodyKey] of Object.entries(step.submit.store ?? {})) {
          if (bodyKey !== null) formData[formKey] = data[bodyKey] ?? null;
        }
        Object.assign(formData, extra);
        // The flow's end (spec 000 §4.5): the step whose submit leaves for the dashboard ("navigate":
        // "dashboard", the existing PFA's signature) completes the flow; login then goes to the dashboard.
        if (step.submit.navigate === 'dashboard') formData.flow_completed_at = new Date().toISOString();
        // The next step is decided on the new data: choosing an activity can add or drop steps.
        const after = resolveFlow(flow, flowContext({ ...row, formData }, partner));
        // A step that is left by something else (the pricing step: by the payment) keeps its data and stays.
        const next = step.submit.advance === false ? step.id : (stepsInfo(after, step.id).next?.identifier ?? step.id);
        // A dossier that was sent (the overview's send sets submitted_at) stays submitted through the later steps.
        const status = formData.submitted_at ? 'submitted' : 'in_progress';
        // Sending the dossier: the contract and the power-of-attorney request, signed (made once per signature).
        const documents = sendsDossier(step) ? await prepareSignedDocuments(app, row, formData, (request.user as UserRow).email) : null;
        if (documents) Object.assign(formData, documents.formData);
        // A request that was lost is back in the flow: so is its user (the store writes both).
        // One write that also returns what the answer carries (no re-read).
        const moved = await moveRequestWithExtras(app.db, row, partner.id, { step: next, formData, status, lostReason: null });
        if (!moved) {
          await deleteFiles(app, documents?.created ?? []);
          throw staleStep(await serialize());
        }
        if (documents?.created.length) {
          // The write's extras still list the PDFs of the previous signature: read them again once those are gone.
          await removeSupersededDocuments(app, row.id, documents.formData.signed_documents);
          return { message: '', payload: await serialize(moved.request, after) };
        }
        return { message: '', payload: await serialize(moved.request, after, moved.extras) };
      });
    }
  }
}) satisfies FastifyPluginAsync<{ registry: FlowRegistry }>;
