import type { FastifyInstance } from 'fastify';
import { resolveFlow, stepsInfo, storedStepData, type Flow, type FlowStep, type StepsInfo } from '../../src/core/flow';
import type { RegistrationRequest } from '../../src/core/api-types';
import { fieldErrorsFromValidation, FieldValidationError } from '../lib/http-errors';
import { isUploadedFile, type UploadedFile } from '../lib/multipart';
import type { UserRow } from '../lib/tokens';
import type { FlowRegistry } from '../flows/registry';
import { deleteFiles } from '../files/files';
import { flowContext, staleStep } from './model';
import { loadRequest, loadSignedInRequest, type LoadedRequest } from './serialize';
import { moveRequestWithExtras, signedInRequest, type SignedInRequest } from './store';
import { ruleOf } from './step-rules';
import { prepareSignedDocuments, removeSupersededDocuments, sendsDossier } from './signed-documents';

/** steps/next at a step with `submit.advance: false` (only the pricing step: the payment moves it on). */
const STEP_LEFT_BY_ITSELF = 'Acest pas se încheie cu plata: alege abonamentul și plătește pentru a merge mai departe.';
/** steps/next at a step whose data the request cannot hold (pending, or storing nothing). */
const COMPLETE_STEP_FIRST = 'Completează pasul curent pentru a merge mai departe.';

/** A request that passed the stale check: the step it stands at, as the flow resolves for it. */
export interface RequestAtStep {
  loaded: LoadedRequest;
  info: StepsInfo;
  step: FlowStep;
}

/** What every registration call answers: the request as it now stands. */
export interface RequestAnswer {
  message: string;
  payload: RegistrationRequest;
}

const answer = (payload: RegistrationRequest): RequestAnswer => ({ message: '', payload });

/**
 * The registration service: what a call of the wizard does to the user's request, for the thin
 * routes of server/routes/registration.ts. It owns the step submit (docs/architecture.md): the stale
 * check, the step's rule, the store write, the status, the flow's completion and the signed
 * documents. Each call reads the request once and resolves its flow once for it (serialize.ts); a
 * submit resolves it once more for the data it writes (the next step and the answer are decided on
 * it) and hands that to the answer. Every write goes through store.ts's version check: a call that
 * loses the race answers 409 with the request as it now stands.
 */
export function createRegistrationService(app: FastifyInstance, registry: Pick<FlowRegistry, 'validate'>) {
  /** Data the request already holds (steps/next), checked against its step's schema by the same Ajv as the step's body. */
  function validateStep(step: FlowStep, data: unknown): void {
    const errors = registry.validate(step.schema, data);
    if (errors) {
      throw new FieldValidationError(fieldErrorsFromValidation({ validation: errors } as never), undefined, errors as unknown[]);
    }
  }

  return {
    /**
     * The session check of a registration call (`app.authenticate`'s condition: null answers 401)
     * that also reads the user's request of the flow with its partner, and with `withExtras` what
     * its answer carries: one query for both (issue 14).
     */
    signIn(flow: Flow, secret: string, options: { withExtras?: boolean } = {}): Promise<SignedInRequest | null> {
      return signedInRequest(app.db, secret, app.config.accessTokenIdleMinutes, flow.registrationType, options);
    },

    /** The user's request of the flow, its flow resolved: from what `signIn` read (no query), else read now. */
    load(flow: Flow, user: UserRow, session: SignedInRequest | null): Promise<LoadedRequest> {
      return session ? loadSignedInRequest(app, session, flow) : loadRequest(app, user, flow);
    },

    /**
     * The stale check, the one of every step call: sent for another step than the one the request
     * stands at (stale tab, double click), or at an endpoint that is not that step's, the call
     * answers 409 with where the request is and changes nothing. `sent` null: the call names no
     * step (steps/previous without one), nothing to check.
     */
    async atStep(loaded: LoadedRequest, sent: string | null, endpoint?: string): Promise<RequestAtStep> {
      const info = stepsInfo(loaded.resolved, loaded.request.step);
      const step = loaded.resolved.steps[info.current.index];
      if (sent !== null && (sent !== step.id || (endpoint !== undefined && step.submit.endpoint !== endpoint))) throw staleStep(await loaded.serialize());
      return { loaded, info, step };
    },

    /** The request as it stands (the open calls). */
    async open(loaded: LoadedRequest): Promise<RequestAnswer> {
      return answer(await loaded.serialize());
    },

    /** Back one step (spec: previous-step call); at the first step nothing changes. */
    async back({ loaded, info }: RequestAtStep): Promise<RequestAnswer> {
      const { request: row, partner, resolved, serialize } = loaded;
      if (!info.previous) return answer(await serialize());
      const moved = await moveRequestWithExtras(app.db, row, partner.id, { step: info.previous.identifier });
      if (!moved) throw staleStep(await serialize());
      // Only the step moved (the version check says the rest is as read): the flow resolves alike.
      return answer(await serialize(moved.request, resolved, moved.extras));
    },

    /** Forward over a step whose data the request already holds (e.g. after going back). */
    async next({ loaded, info, step }: RequestAtStep): Promise<RequestAnswer> {
      const { request: row, partner, prices, resolved, serialize } = loaded;
      if (step.status === 'pending' || !step.submit.store) throw new FieldValidationError({ current_step_identifier: [COMPLETE_STEP_FIRST] });
      // A step that something else leaves (the pricing step: the payment) is never stepped over.
      if (step.submit.advance === false) throw new FieldValidationError({ current_step_identifier: [STEP_LEFT_BY_ITSELF] });
      const stored = storedStepData(step, row.formData);
      validateStep(step, stored);
      // What the database knows may have changed since (a deleted identity session): check again.
      await ruleOf(step)?.({ app, body: stored, request: row, files: {}, partner, prices, step, flow: resolved });
      if (!info.next) return answer(await serialize());
      const moved = await moveRequestWithExtras(app.db, row, partner.id, { step: info.next.identifier });
      if (!moved) throw staleStep(await serialize());
      return answer(await serialize(moved.request, resolved, moved.extras));
    },

    /**
     * The step submit, on a request that passed the stale check and a body its step's schema took
     * (multipart text fields with the schema's types: is_married "true" → true): the step's rule,
     * its fields stored, the flow's completion, the status, the signed documents of a sent dossier,
     * one write that moves the request to the next step and returns what the answer carries.
     */
    async submit({ loaded, step }: RequestAtStep, body: Record<string, unknown>, email: string): Promise<RequestAnswer> {
      const { flow, request: row, partner, prices, resolved, serialize } = loaded;
      const { current_step_identifier: _sent, ...fields } = body;
      void _sent;
      // Uploaded files go to the step's rule; the JSON Schema saw the other fields.
      const files = Object.fromEntries(Object.entries(fields).filter(([, v]) => isUploadedFile(v))) as Record<string, UploadedFile>;
      const data = Object.fromEntries(Object.entries(fields).filter(([, v]) => !isUploadedFile(v)));
      const extra = (await ruleOf(step)?.({ app, body: data, request: row, files, partner, prices, step, flow: resolved })) ?? {};
      const formData = { ...row.formData };
      for (const [formKey, bodyKey] of Object.entries(step.submit.store ?? {})) {
        if (bodyKey !== null) formData[formKey] = data[bodyKey] ?? null;
      }
      Object.assign(formData, extra);
      // The flow's end (spec 000 §4.5): the step whose submit leaves for the dashboard ("navigate":
      // "dashboard", the existing PFA's signature) completes the flow; login then goes to the dashboard.
      if (step.submit.navigate === 'dashboard') formData.flow_completed_at = new Date().toISOString();
      // The next step is decided on the new data (choosing an activity can add or drop steps); the answer is too.
      const after = resolveFlow(flow, flowContext({ ...row, formData }, partner));
      // A step that is left by something else (the pricing step: by the payment) keeps its data and stays.
      const next = step.submit.advance === false ? step.id : (stepsInfo(after, step.id).next?.identifier ?? step.id);
      // A dossier that was sent (the overview's send sets submitted_at) stays submitted through the later steps.
      const status = formData.submitted_at ? 'submitted' : 'in_progress';
      // Sending the dossier: the contract and the power-of-attorney request, signed (made once per signature).
      const documents = sendsDossier(step) ? await prepareSignedDocuments(app, row, formData, email) : null;
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
        return answer(await serialize(moved.request, after));
      }
      return answer(await serialize(moved.request, after, moved.extras));
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
