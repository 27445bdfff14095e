import type { FastifyInstance } from 'fastify';
import { FieldValidationError, HttpError } from '../lib/http-errors';
import { dossierPayments } from '../payment/billing';
import { applicantName, type RequestRow } from '../registration/model';
import { signedDocumentsOf } from '../registration/signed-documents';
import { requestById } from '../registration/store';
import { timelineOf, tradeRegisterDocumentsOf } from '../registration/timeline';
import { OPS_ACTOR, READ_ACTIONS, auditedSearchTerm, recordAudit } from '../staff/audit';
import { dossierSummaries, requestsByEmail, type DossierSummaryRow } from '../staff/dossier-queries';
import { OPS_MESSAGES } from './messages';

/**
 * What the operator API (server/routes/ops.ts, `npm run ops`) does with dossiers: names them by
 * request id or e-mail, shows them, and records each read of an applicant's data in the audit log
 * (issue 32). The changes (timeline items, documents, mails) are the services' of
 * server/registration/timeline.ts and server/staff/dossier-actions.ts, shared with the console.
 */

/** The request named by id (digits) or by the applicant's e-mail (their new-PFA request first). */
export async function findDossier(app: FastifyInstance, dossier: string): Promise<RequestRow> {
  const name = dossier.trim();
  let rows: RequestRow[];
  if (/^\d{1,9}$/.test(name)) {
    const row = await requestById(app.db, Number(name));
    rows = row ? [row] : [];
  } else if (name.includes('@')) {
    rows = await requestsByEmail(app.db, name.toLowerCase());
  } else {
    throw new FieldValidationError({ dossier: [OPS_MESSAGES.badDossier] }, OPS_MESSAGES.badDossier);
  }
  if (!rows[0]) throw new HttpError(404, OPS_MESSAGES.notFound(name));
  return rows[0];
}

/** A dossier in the list. */
function summary(row: DossierSummaryRow) {
  return {
    id: row.id,
    email: row.email,
    name: applicantName(row.profile),
    registration_type: row.registrationType,
    step: row.step,
    status: row.status,
    paid: row.paid,
    created_at: row.createdAt.toISOString(),
    timeline_items: row.timelineItems,
  };
}

/** Dossiers newest first, those whose applicant's e-mail contains `search` when given (the search is audited, not its results). */
export async function listDossiers(app: FastifyInstance, search: string | undefined, limit: number) {
  const term = search?.trim().toLowerCase();
  const rows = await dossierSummaries(app.db, { term, limit });
  // A search names a person: the search is recorded (issue 32), not its results.
  if (term) await recordAudit(app.db, { ...OPS_ACTOR, action: READ_ACTIONS.search, after: { search: auditedSearchTerm(term) } });
  return rows.map(summary);
}

/** A dossier as the ops API answers it: its summary, timeline, payments, trade register documents and signed PDFs. */
export async function dossierView(app: FastifyInstance, requestId: number) {
  const [row] = await dossierSummaries(app.db, { id: requestId, limit: 1 });
  return {
    ...summary(row),
    timeline: await timelineOf(app.db, requestId),
    payments: await dossierPayments(app.db, requestId),
    trade_register_documents: await tradeRegisterDocumentsOf(app.db, { id: requestId, userId: row.userId }),
    signed_documents: (await signedDocumentsOf(app.db, { id: requestId, userId: row.userId })).map(({ id, kind, name, size }) => ({ id, kind, name, size })),
  };
}

/** The dossier named `dossier`, shown to an operator (the read is audited). */
export async function readDossier(app: FastifyInstance, dossier: string) {
  const row = await findDossier(app, dossier);
  const view = await dossierView(app, row.id);
  await recordAudit(app.db, { ...OPS_ACTOR, action: READ_ACTIONS.dossier, requestId: row.id });
  return view;
}

/** One signed PDF of the dossier and its bytes (the read is audited); any other file: 404. */
export async function signedDocumentFile(app: FastifyInstance, dossier: string, id: number) {
  const row = await findDossier(app, dossier);
  const document = (await signedDocumentsOf(app.db, row)).find((d) => d.id === id);
  const data = document ? await app.storage.get(document.storageKey) : null;
  if (!document || !data) throw new HttpError(404, OPS_MESSAGES.noSignedDocument);
  await recordAudit(app.db, { ...OPS_ACTOR, action: READ_ACTIONS.file, requestId: row.id, after: { kind: document.kind, id: document.id } });
  return { document, data };
}
