import type { FastifyInstance } from 'fastify';
import { resolveFlow } from '../../src/core/flow';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { dossierPayments } from '../payment/billing';
import { applicantName, flowContext } from '../registration/model';
import { codesOf } from '../registration/overview';
import { serializeRequest } from '../registration/serialize';
import { signatureFileIdOf } from '../registration/signature';
import { READ_ACTIONS, auditEntries, auditedSearchTerm, fileKindOf, recordAudit } from './audit';
import { DOSSIER_ACTION_MESSAGES } from './dossier-actions';
import { applicantFiles, dossierPage, dossierWithOwner, type DossierPageRow } from './dossier-queries';

/**
 * What the operator console's API (server/routes/staff-dossiers.ts, issue 18) reads: the list with
 * its filters, one dossier with everything about it, one of its files; each read of an applicant's
 * data is recorded in the audit log (issue 32). The changes are the services' shared with the ops
 * API (server/registration/timeline.ts, server/staff/dossier-actions.ts).
 */

export const DOSSIER_MESSAGES = {
  ...DOSSIER_ACTION_MESSAGES,
  notFound: 'Dosarul nu a fost găsit.',
  fileNotFound: 'Fișierul nu aparține acestui dosar.',
  unknownFlow: 'Fluxul nu există.',
  message: 'Scrie ce documente lipsesc (cel mult 2000 de caractere).',
} as const;

/** What the console's list filters on (`GET /api/staff/dossiers`), as the query names it. */
export interface ConsoleQuery {
  search?: string;
  flow?: string;
  step?: string;
  paid?: boolean;
  status?: string;
  partner?: string;
  page: number;
  page_size: number;
}

const fileUrl = (dossier: number, file: number) => `/api/staff/dossiers/${dossier}/files/${file}`;

/** The position (1-based) of a step in its flow file, or null when the flow has no such step any more. */
function stepNumber(app: FastifyInstance, registrationType: number, stepId: string): number | null {
  const flow = app.flows.byType[registrationType as 1 | 2];
  const index = flow ? flow.steps.findIndex((s) => s.id === stepId) : -1;
  return index < 0 ? null : index + 1;
}

type ItemRow = Pick<DossierPageRow, 'id' | 'email' | 'lastName' | 'firstName' | 'cnp' | 'cui' | 'registrationType' | 'step' | 'paid' | 'status' | 'partner' | 'createdAt'>;

function itemOf(app: FastifyInstance, row: ItemRow) {
  return {
    id: row.id,
    email: row.email,
    name: applicantName({ last_name: row.lastName, first_name: row.firstName }),
    cnp: row.cnp,
    cui: row.cui,
    registration_type: row.registrationType,
    flow: app.flows.byType[row.registrationType as 1 | 2]?.id ?? String(row.registrationType),
    step: stepNumber(app, row.registrationType, row.step),
    step_id: row.step,
    paid: row.paid,
    status: row.status,
    partner: row.partner,
    created_at: row.createdAt.toISOString(),
  };
}

/** The dossier of request `id` with its applicant and partner; 404 when there is none. */
export async function findDossier(app: FastifyInstance, id: number) {
  const found = await dossierWithOwner(app.db, id);
  if (!found) throw new HttpError(404, DOSSIER_MESSAGES.notFound);
  return found;
}

/** A page of the list, newest first (an unknown flow: 422); a search is recorded in the audit log, not its results. */
export async function dossierList(app: FastifyInstance, staffUserId: number, q: ConsoleQuery) {
  let registrationType: number | undefined;
  if (q.flow) {
    const flow = app.flows.flows.find((f) => f.id === q.flow);
    if (!flow) throw new FieldValidationError({ flow: [DOSSIER_MESSAGES.unknownFlow] });
    registrationType = flow.registrationType;
  }
  const { rows, total } = await dossierPage(app.db, {
    search: q.search,
    registrationType,
    step: q.step || undefined,
    paid: q.paid,
    status: q.status || undefined,
    partner: q.partner || undefined,
    page: q.page,
    pageSize: q.page_size,
  });
  // A search names a person: the search is recorded (issue 32), not its results.
  if (q.search?.trim()) await recordAudit(app.db, { staffUserId, action: READ_ACTIONS.search, after: { search: auditedSearchTerm(q.search) } });
  return { items: rows.map((row) => itemOf(app, row)), total, page: q.page, page_size: q.page_size };
}

/** Everything about one dossier: its item, the request as the applicant's API answers it, codes, payments, files, audit entries. */
export async function dossierDetail(app: FastifyInstance, staffUserId: number, id: number) {
  const { request: row, user, partner } = await findDossier(app, id);
  const flow = app.flows.byType[row.registrationType as 1 | 2];
  const serialized = await serializeRequest(app.db, row, partner, resolveFlow(flow, flowContext(row, partner)));
  const fileRows = await applicantFiles(app.db, user.id);
  const audit = await auditEntries(app.db, { requestId: row.id });
  await recordAudit(app.db, { staffUserId, action: READ_ACTIONS.dossier, requestId: row.id });
  return {
    dossier: itemOf(app, {
      id: row.id,
      email: user.email,
      lastName: (row.profile.last_name as string | undefined) ?? null,
      firstName: (row.profile.first_name as string | undefined) ?? null,
      cnp: (row.profile.personal_code as string | undefined) ?? null,
      cui: (row.formData.fiscal_code as string | undefined) ?? null,
      registrationType: row.registrationType,
      step: row.step,
      paid: row.paid,
      status: row.status,
      partner: partner.slug,
      createdAt: row.createdAt,
    }),
    request: serialized,
    caen_codes: await codesOf(app.db, row.formData),
    payments: await dossierPayments(app.db, row.id),
    files: fileRows.map((f) => ({ id: f.id, name: f.name, content_type: f.contentType, size: f.size, created_at: f.createdAt.toISOString(), url: fileUrl(row.id, f.id) })),
    audit,
  };
}

/** One file of the dossier's applicant and its bytes (the read is audited); another's file or a missing one: 404. */
export async function dossierFile(app: FastifyInstance, staffUserId: number, id: number, fileId: number) {
  const { request: row, user } = await findDossier(app, id);
  const file = (await applicantFiles(app.db, user.id)).find((f) => f.id === fileId);
  const data = file ? await app.storage.get(file.storageKey) : null;
  if (!file || !data) throw new HttpError(404, DOSSIER_MESSAGES.fileNotFound);
  const kind = await fileKindOf(app.db, file.id, signatureFileIdOf(row.formData));
  await recordAudit(app.db, { staffUserId, action: READ_ACTIONS.file, requestId: row.id, after: { kind, id: file.id } });
  return { file, data };
}
