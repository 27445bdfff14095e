import { isDeepStrictEqual } from 'node:util';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { resolveFlow, stepsInfo, type Flow, type FlowContext, type ResolvedFlow } from '../../src/core/flow';
import type { Db } from '../db';
import { partners, registrationRequests } from '../db/schema';
import { fileUrl } from '../files/files';
import { forbidden, HttpError } from '../lib/http-errors';
import { identityMediaOf } from '../identity/queries';
import { signatureFileIdOf } from './signature';
import { documentMediaOf } from './documents';
import { timelineItemOf } from './timeline';
import { requestExtras } from './request-extras';
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

/**
 * The request as the API returns it (spec 000 §3 "Company request", 001 §3): one query
 * (`requestExtras`) whatever the number of documents, photos or timeline items.
 */
export async function serializeRequest(db: Db, request: RequestRow, partner: PartnerRow, flow: ResolvedFlow) {
  const extras = await requestExtras(db, {
    id: request.id,
    userId: request.userId,
    partnerId: partner.id,
    signatureFileId: signatureFileIdOf(request.formData),
  });
  const steps = stepsInfo(flow, request.step);
  const signature = extras.signature_id === null ? null : { id: extras.signature_id, url: fileUrl(extras.signature_id) };
  return {
    id: request.id,
    registration_type: request.registrationType,
    step: steps.current.identifier,
    status: request.status,
    lost_reason: request.lostReason,
    form_data: request.formData,
    profile: request.profile,
    media: {
      ...identityMediaOf(extras.identity_uploads.map((u) => ({ context: u.context, fileId: u.file_id }))),
      signature_document: signature,
      ...documentMediaOf(extras.documents),
      // The file must also be the applicant's: a document is never served to anyone else.
      trade_register_documents: extras.documents.filter((d) => d.kind === 'trade_register' && d.own).map(({ id, name }) => ({ id, name })),
    },
    signature_file_id: signature?.id ?? null,
    /** The card answer (spec 001 §3 existing request: 1, 0 or null), also at the top level. */
    ghiseu_card_requested: (request.formData.ghiseu_card_requested as 0 | 1 | null | undefined) ?? null,
    paid: request.paid,
    paid_at: request.paidAt?.toISOString() ?? null,
    created_at: request.createdAt.toISOString(),
    mailing_address: extras.mailing_address,
    /** The existing PFA found by its fiscal code (spec 001 §3 existing request "company"); null until then. */
    company: companyOf(request.formData),
    status_timeline: extras.timeline.map(timelineItemOf),
    steps,
    variants: flow.variants,
    partner: {
      id: partner.id,
      name: partner.name,
      slug: partner.slug,
      is_unaffiliated: partner.isUnaffiliated,
      description: partner.description,
      footnote: partner.footnote,
      prices: extras.prices.map((p) => ({
        id: p.id,
        description: p.description,
        stripe_id: p.stripe_id,
        amount: p.amount_bani / 100,
        currency: p.currency,
        interval: p.interval,
      })),
    },
  };
}

export type SerializedRequest = Awaited<ReturnType<typeof serializeRequest>>;

/** Whether the flow resolves alike for both rows (a move back or forth changes only the step). */
function sameFlowContext(row: RequestRow, loaded: RequestRow): boolean {
  return row === loaded || (row.paid === loaded.paid && isDeepStrictEqual(row.formData, loaded.formData));
}

/**
 * Loads the user's request with everything a route needs to decide and to answer: the request and
 * the partner in one query (two more the first time, when the request is created), the flow
 * resolved once. `serialize(row, resolved)` takes the flow already resolved for a changed row
 * (a step submit resolves it to find the next step); the loaded row reuses `resolved`.
 */
export async function loadRequest(app: FastifyInstance, user: UserRow, flow: Flow) {
  if (user.registrationType !== flow.registrationType) throw forbidden();
  const [found] = await app.db
    .select({ partner: partners, request: registrationRequests })
    .from(partners)
    .leftJoin(
      registrationRequests,
      and(eq(registrationRequests.userId, user.id), eq(registrationRequests.registrationType, flow.registrationType)),
    )
    .where(eq(partners.id, user.partnerId));
  const partner = found.partner;
  const request = found.request ?? (await openRequest(app, user, flow));
  const resolved = resolveFlow(flow, flowContext(request, partner));
  return {
    request,
    partner,
    resolved,
    serialize: (row: RequestRow = request, rowFlow?: ResolvedFlow) =>
      serializeRequest(app.db, row, partner, rowFlow ?? (sameFlowContext(row, request) ? resolved : resolveFlow(flow, flowContext(row, partner)))),
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
