import type { FastifyInstance } from 'fastify';
import { requestContext, type FlowContext } from '../../src/core/flow';
import type { partners, registrationRequests } from '../db/schema';
import { HttpError } from '../lib/http-errors';
import type { UploadedFile } from '../lib/multipart';

/**
 * The registration request's types, shared by the store (store.ts, the only module that reads and
 * writes the requests table), the serializer (serialize.ts) and the step rules. This module
 * imports no other module of server/registration, so nothing can import back into a circle.
 */

export type RequestRow = typeof registrationRequests.$inferSelect;
export type PartnerRow = typeof partners.$inferSelect;

/** The applicant's name as the request's profile gives it ("Popescu Ion"), or null (the ops list, the records an erasure keeps). */
export function applicantName(profile: Record<string, unknown>): string | null {
  const name = [profile.last_name, profile.first_name].filter((p) => typeof p === 'string' && p.trim()).join(' ');
  return name || null;
}

/** One of a partner's prices, as the request's reads return them (request-extras.ts `partnerPricesSql`). */
export interface PartnerPrice {
  id: number;
  description: string;
  stripe_id: string;
  amount_bani: number;
  currency: string;
  interval: string;
}

/**
 * What variants and conditions are decided on for a request: core's `requestContext` (the browser
 * decides with the same function on the API's answer), given the row in the answer's shape.
 */
export function flowContext(request: Pick<RequestRow, 'formData' | 'paid'>, partner: Pick<PartnerRow, 'slug' | 'isUnaffiliated'>): FlowContext {
  return requestContext({
    form_data: request.formData,
    paid: request.paid,
    partner: { slug: partner.slug, is_unaffiliated: partner.isUnaffiliated },
  });
}

/** 409 with the request as it now stands: the browser's step guard takes the user there. */
export function staleStep(payload: unknown): HttpError {
  return new HttpError(409, 'Acest pas a fost deja trimis. Te ducem la pasul la care ai rămas.', payload);
}

export interface StepRuleInput {
  app: FastifyInstance;
  body: Record<string, unknown>;
  request: RequestRow;
  /** Files of a multipart step submit by field name (`file` for the signature); empty otherwise. */
  files: Record<string, UploadedFile>;
  /** The request's partner (the flow was resolved for it). */
  partner: PartnerRow;
  /** The partner's prices, read with the request (no query of their own). */
  prices: PartnerPrice[];
  /** The step being submitted, as the flow resolves it for the request (its `ui:options` say what the rule checks). */
  step: import('../../src/core/flow').FlowStep;
  /** The flow the step belongs to (resolved for the request). */
  flow: import('../../src/core/flow').ResolvedFlow;
}

/**
 * Server rules of a step beyond its JSON Schema: what only the database knows (nomenclature ids
 * exist) and what the schema cannot say. A flow step names its rule (`"rule": "documents"`).
 * Returns extra form data to keep with the step's own fields.
 */
export type StepRule = (input: StepRuleInput) => Promise<Record<string, unknown> | void>;
