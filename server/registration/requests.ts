import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { resolveFlow, stepsInfo, type Flow, type FlowContext, type ResolvedFlow } from '../../src/core/flow';
import type { Db } from '../db';
import { partnerPrices, partners, registrationRequests } from '../db/schema';
import { forbidden, HttpError } from '../lib/http-errors';
import { identityMedia } from '../identity/queries';
import { savedSignature } from './signature';
import { documentMedia } from './documents';
import { mailingAddressOf } from './mailing';
import { timelineOf, tradeRegisterDocumentsOf } from './timeline';
import { companyOf } from '../company/types';
import type { UserRow } from '../lib/tokens';

export type RequestRow = typeof registrationRequests.$inferSelect;
export type PartnerRow = typeof partners.$inferSelect;

/** What variants and conditions are decided on for a request. */
export function flowContext(request: RequestRow, partner: PartnerRow): FlowContext {
  const activity = request.formData.activity;
  return {
    partner: partner.slug,
    unaffiliated: partner.isUnaffiliated,
    paid: request.paid,
    activity: typeof activity === 'string' ? activity : null,
    formData: request.formData,
  };
}

export async function partnerOf(db: Db, user: UserRow): Promise<PartnerRow> {
  const [partner] = await db.select().from(partners).where(eq(partners.id, user.partnerId));
  return partner;
}

/** The user's request in this flow, created at the flow's first step on first use. */
export async function openRequest(app: FastifyInstance, user: UserRow, flow: Flow): Promise<RequestRow> {
  if (user.registrationType !== flow.registrationType) throw forbidden();
  const where = and(eq(registrationRequests.userId, user.id), eq(registrationRequests.registrationType, flow.registrationType));
  const [existing] = await app.db.select().from(registrationRequests).where(where);
  if (existing) return existing;
  await app.db
    .insert(registrationRequests)
    .values({ userId: user.id, registrationType: flow.registrationType, step: flow.steps[0].id })
    .onConflictDoNothing();
  const [created] = await app.db.select().from(registrationRequests).where(where);
  return created;
}

/** The request as the API returns it (spec 000 §3 "Company request", 001 §3). */
export async function serializeRequest(db: Db, request: RequestRow, partner: PartnerRow, flow: ResolvedFlow) {
  const prices = await db
    .select()
    .from(partnerPrices)
    .where(eq(partnerPrices.partnerId, partner.id))
    .orderBy(asc(partnerPrices.sortOrder));
  const steps = stepsInfo(flow, request.step);
  const media = await identityMedia(db, request.userId);
  const signature = await savedSignature(db, request);
  return {
    id: request.id,
    registration_type: request.registrationType,
    step: steps.current.identifier,
    status: request.status,
    lost_reason: request.lostReason,
    form_data: request.formData,
    profile: request.profile,
    media: {
      ...media,
      signature_document: signature,
      ...(await documentMedia(db, request)),
      trade_register_documents: await tradeRegisterDocumentsOf(db, request),
    },
    signature_file_id: signature?.id ?? null,
    /** The card answer (spec 001 §3 existing request: 1, 0 or null), also at the top level. */
    ghiseu_card_requested: (request.formData.ghiseu_card_requested as 0 | 1 | null | undefined) ?? null,
    paid: request.paid,
    paid_at: request.paidAt?.toISOString() ?? null,
    created_at: request.createdAt.toISOString(),
    mailing_address: await mailingAddressOf(db, request.userId),
    /** The existing PFA found by its fiscal code (spec 001 §3 existing request "company"); null until then. */
    company: companyOf(request.formData),
    status_timeline: await timelineOf(db, request.id),
    steps,
    variants: flow.variants,
    partner: {
      id: partner.id,
      name: partner.name,
      slug: partner.slug,
      is_unaffiliated: partner.isUnaffiliated,
      description: partner.description,
      footnote: partner.footnote,
      prices: prices.map((p) => ({
        id: p.id,
        description: p.description,
        stripe_id: p.stripePriceId,
        amount: p.amountBani / 100,
        currency: p.currency,
        interval: p.interval,
      })),
    },
  };
}

export type SerializedRequest = Awaited<ReturnType<typeof serializeRequest>>;

/** Loads the user's request with everything a route needs to decide and to answer. */
export async function loadRequest(app: FastifyInstance, user: UserRow, flow: Flow) {
  const request = await openRequest(app, user, flow);
  const partner = await partnerOf(app.db, user);
  const resolved = resolveFlow(flow, flowContext(request, partner));
  return {
    request,
    partner,
    resolved,
    serialize: (row: RequestRow = request) => serializeRequest(app.db, row, partner, resolveFlow(flow, flowContext(row, partner))),
  };
}

/**
 * Moves the request from `fromStep` to `toStep` with new form data, only if nobody moved it in
 * the meantime (the version check); otherwise the caller answers 409.
 */
export async function moveRequest(
  db: Db,
  request: RequestRow,
  changes: { step: string; formData?: Record<string, unknown>; status?: string; lostReason?: string | null },
): Promise<RequestRow | null> {
  const [updated] = await db
    .update(registrationRequests)
    .set({
      step: changes.step,
      formData: changes.formData ?? request.formData,
      status: changes.status ?? request.status,
      lostReason: changes.lostReason === undefined ? request.lostReason : changes.lostReason,
      version: request.version + 1,
      updatedAt: new Date(),
    })
    .where(and(eq(registrationRequests.id, request.id), eq(registrationRequests.version, request.version)))
    .returning();
  return updated ?? null;
}

/** 409 with the request as it now stands: the browser's step guard takes the user there. */
export function staleStep(payload: unknown): HttpError {
  return new HttpError(409, 'Acest pas a fost deja trimis. Te ducem la pasul la care ai rămas.', payload);
}
