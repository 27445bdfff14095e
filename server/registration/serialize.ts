import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { forbidden } from '../lib/http-errors';
import { resolveFlow, stepsInfo, type Flow, type ResolvedFlow } from '../../src/core/flow';
import type { RegistrationRequest } from '../../src/core/api-types';
import type { TimelineItem } from '../../src/core/timeline';
import type { Db } from '../db';
import { fileUrl } from '../files/files';
import { identityMediaOf } from '../identity/queries';
import { companyOf } from '../company/types';
import { companyAnswer } from '../company/caen';
import type { UserRow } from '../lib/tokens';
import { flowContext, type PartnerPrice, type PartnerRow, type RequestRow } from './model';
import { requestExtras, type RequestExtras } from './request-extras';
import { openRequest, requestWithPartner, type SignedInRequest } from './store';
import { signatureFileIdOf } from './signature';
import { documentMediaOf } from './documents';
import { timelineItemOf } from './timeline';
import { isSignedDocumentKind } from './signed-documents';

/**
 * The request as the API returns it (spec 000 §3 "Company request", 001 §3), typed against the
 * shared `RegistrationRequest` (src/core/api-types.ts) the browser reads: one query
 * (`requestExtras`) whatever the number of documents, photos or timeline items, none when the
 * extras were read with the request (`known`).
 */
export async function serializeRequest(
  db: Db,
  request: RequestRow,
  partner: PartnerRow,
  flow: ResolvedFlow,
  known: RequestExtras | null = null,
): Promise<RegistrationRequest> {
  const extras =
    known ??
    (await requestExtras(db, {
      id: request.id,
      userId: request.userId,
      partnerId: partner.id,
      signatureFileId: signatureFileIdOf(request.formData),
    }));
  const steps = stepsInfo(flow, request.step);
  const signature = extras.signature_id === null ? null : { id: extras.signature_id, url: fileUrl(extras.signature_id) };
  return {
    id: request.id,
    registration_type: request.registrationType as RegistrationRequest['registration_type'],
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
      // The contract and power-of-attorney request made when the dossier was sent (signed-documents.ts).
      signed_documents: extras.documents.filter((d) => isSignedDocumentKind(d.kind) && d.own).map(({ id, name, kind }) => ({ id, kind, name, url: fileUrl(id) })),
    },
    signature_file_id: signature?.id ?? null,
    ghiseu_card_requested: (request.formData.ghiseu_card_requested as 0 | 1 | null | undefined) ?? null,
    paid: request.paid,
    paid_at: request.paidAt?.toISOString() ?? null,
    created_at: request.createdAt.toISOString(),
    mailing_address: extras.mailing_address,
    // "Am PFA": the firm found, with what its main CAEN code means in CAEN Rev.3 (one query when it has a code).
    company: await companyAnswer(db, companyOf(request.formData)),
    status_timeline: extras.timeline.map(timelineItemOf) satisfies TimelineItem[],
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

/** Whether the flow resolves alike for both rows (a move back or forth changes only the step). */
function sameFlowContext(row: RequestRow, loaded: RequestRow): boolean {
  return row === loaded || (row.paid === loaded.paid && isDeepStrictEqual(row.formData, loaded.formData));
}

/**
 * Loads the user's request with everything a route needs to decide and to answer: the request and
 * the partner in one query (store.ts), the flow resolved once for it. `serialize(row, resolved)`
 * takes the flow already resolved for a changed row (a step submit resolves it to find the next
 * step: the answer uses that one); the loaded row, and a row whose flow context did not change
 * (a move of the step only), reuse `resolved`.
 */
export async function loadRequest(app: FastifyInstance, user: UserRow, flow: Flow, options: { withExtras?: boolean } = {}): Promise<LoadedRequest> {
  const { request, partner, prices, extras } = await requestWithPartner(app.db, user, flow, options);
  return loaded(app, flow, request, partner, prices, extras);
}

/**
 * `loadRequest` from what the session check read with the request (`signedInRequest`, store.ts): no
 * query, unless the request is created now (its first call). The same 403 for a user of the other flow.
 */
export async function loadSignedInRequest(app: FastifyInstance, found: SignedInRequest, flow: Flow): Promise<LoadedRequest> {
  if (found.user.registrationType !== flow.registrationType) throw forbidden();
  if (!found.request) return loaded(app, flow, await openRequest(app.db, found.user, flow), found.partner, found.prices, null);
  return loaded(app, flow, found.request, found.partner, found.prices, found.extras);
}

/** A call's request as `loadRequest` gives it. */
export type LoadedRequest = ReturnType<typeof loaded>;

function loaded(app: FastifyInstance, flow: Flow, request: RequestRow, partner: PartnerRow, prices: PartnerPrice[], extras: RequestExtras | null) {
  const resolved = resolveFlow(flow, flowContext(request, partner));
  return {
    /** The flow file as written (a changed row's flow is resolved from it). */
    flow,
    request,
    partner,
    /** The partner's prices (read with the request). */
    prices,
    resolved,
    serialize: (row: RequestRow = request, rowFlow?: ResolvedFlow, rowExtras: RequestExtras | null = null) =>
      serializeRequest(
        app.db,
        row,
        partner,
        rowFlow ?? (sameFlowContext(row, request) ? resolved : resolveFlow(flow, flowContext(row, partner))),
        // What was read with the request answers for it, not for a row written since (a move
        // returns the moved row's own: `moveRequestWithExtras`).
        rowExtras ?? (row === request ? extras : null),
      ),
  };
}
