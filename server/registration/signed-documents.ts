import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FlowStep } from '../../src/core/flow';
import { todayInRomania } from '../../src/core/timeline';
import type { Db } from '../db';
import { files as filesTable, requestDocuments } from '../db/schema';
import { deleteFiles, findUserFile, saveFile } from '../files/files';
import { FieldValidationError } from '../lib/http-errors';
import { documentPdf } from '../documents/pdf';
import { renderTemplate, type TemplateValues } from '../documents/template';
import type { RequestRow } from './model';
import { OVERVIEW_RULE } from './overview';
import { signatureFileIdOf } from './signature';

/**
 * The signed documents (issue 17 item 10, spec 001 §2 item 5): when the dossier is sent, the
 * legal-assistance contract and the power-of-attorney request are made as PDFs from their text
 * templates (content/documents/*.md), filled with the applicant's name, CNP, address and the date,
 * with the drawn signature (semnatura.png) placed on them. They are kept as the applicant's files,
 * linked to the request in `request_documents` by kind; the applicant downloads them from the
 * status page (`media.signed_documents`, through `GET /api/files/:id`, owner only), operators
 * through `npm run ops -- download`.
 *
 * Made once: `form_data.signed_documents` records the signature they carry and their file ids; a
 * later send with the same signature keeps them, a send after a new signature makes them again
 * (the old ones are removed once the new request state is written).
 */

export const SIGNED_DOCUMENTS = [
  { kind: 'legal_assistance_contract', template: 'contract-asistenta-juridica.md', fileName: 'contract-asistenta-juridica.pdf', title: 'Contract de asistență juridică' },
  { kind: 'power_of_attorney_request', template: 'cerere-imputernicire.md', fileName: 'cerere-imputernicire.pdf', title: 'Cerere de împuternicire' },
] as const;

export type SignedDocumentKind = (typeof SIGNED_DOCUMENTS)[number]['kind'];
export const SIGNED_DOCUMENT_KINDS: SignedDocumentKind[] = SIGNED_DOCUMENTS.map((d) => d.kind);

export function isSignedDocumentKind(kind: string): kind is SignedDocumentKind {
  return (SIGNED_DOCUMENT_KINDS as string[]).includes(kind);
}

export const TEMPLATES_DIR = fileURLToPath(new URL('../../content/documents/', import.meta.url));

export const SIGNED_DOCUMENT_MESSAGES = {
  unreadableSignature: 'Semnătura salvată nu poate fi aplicată pe documente. Te rugăm să revii la pasul „Semnătură” și să semnezi din nou.',
} as const;

/** What form_data keeps about the documents made. */
export interface SignedDocumentsRecord {
  signature_file_id: number;
  generated_at: string;
  files: Record<SignedDocumentKind, number>;
}

let templates: Map<SignedDocumentKind, string> | null = null;

const SAMPLE: TemplateValues = { nume: 'Popescu Ion', cnp: '1900101123456', adresa: 'Str. Lungă nr. 1, Cluj-Napoca', data: '01.01.2026', produs: 'Ghișeu', email: 'ion@exemplu.ro', dosar: '1' };

/**
 * Reads and checks both templates (an unknown placeholder or a missing {{semnatura}} throws):
 * called when the server starts, so a broken template stops the start instead of a send.
 */
export function loadSignedDocumentTemplates(dir = TEMPLATES_DIR): Map<SignedDocumentKind, string> {
  const loaded = new Map<SignedDocumentKind, string>();
  for (const document of SIGNED_DOCUMENTS) {
    const path = `${dir}${document.template}`;
    const text = fs.readFileSync(path, 'utf8');
    renderTemplate(text, SAMPLE, path);
    loaded.set(document.kind, text);
  }
  templates = loaded;
  return loaded;
}

/** Whether submitting this step sends the dossier: the overview's send, or the flow's end (the existing PFA's signature). */
export function sendsDossier(step: Pick<FlowStep, 'rule' | 'submit'>): boolean {
  return step.rule === OVERVIEW_RULE || step.submit.navigate === 'dashboard';
}

/** "25.11.2026": the day in Romania. */
export function romanianDate(now: Date): string {
  const [y, m, d] = todayInRomania(now).split('-');
  return `${d}.${m}.${y}`;
}

/** The placeholders' values for a request (profile names, CNP, the home address lines). */
export function templateValues(request: Pick<RequestRow, 'id' | 'profile'>, email: string, productName: string, now: Date): TemplateValues {
  const p = request.profile;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const address = [text(p.address_1), text(p.address_2)].filter(Boolean).join(', ');
  return {
    nume: [text(p.last_name), text(p.first_name)].filter(Boolean).join(' '),
    cnp: text(p.personal_code),
    adresa: address,
    data: romanianDate(now),
    produs: productName,
    email,
    dosar: String(request.id),
  };
}

function recordOf(formData: Record<string, unknown>): SignedDocumentsRecord | null {
  const record = formData.signed_documents as SignedDocumentsRecord | undefined;
  if (!record || typeof record !== 'object' || typeof record.files !== 'object' || record.files === null) return null;
  return SIGNED_DOCUMENT_KINDS.every((k) => Number.isInteger(record.files[k])) ? record : null;
}

async function signedRows(app: FastifyInstance, requestId: number) {
  return app.db
    .select({ fileId: requestDocuments.fileId, kind: requestDocuments.kind })
    .from(requestDocuments)
    .where(and(eq(requestDocuments.requestId, requestId), inArray(requestDocuments.kind, SIGNED_DOCUMENT_KINDS)));
}

export interface PreparedDocuments {
  /** What to merge into form_data (nothing when there is no signature). */
  formData: { signed_documents?: SignedDocumentsRecord };
  /** Files made by this call: to remove when the request could not be written. */
  created: number[];
}

/**
 * Makes the signed documents for a request about to be sent (`formData`: its data after the
 * submit), unless the ones already made carry the same signature. Nothing without a signature.
 */
export async function prepareSignedDocuments(
  app: FastifyInstance,
  request: RequestRow,
  formData: Record<string, unknown>,
  email: string,
  now = new Date(),
): Promise<PreparedDocuments> {
  const signatureId = signatureFileIdOf(formData);
  const signature = signatureId ? await findUserFile(app, request.userId, signatureId) : null;
  if (!signature) return { formData: {}, created: [] };

  const previous = recordOf(formData);
  if (previous && previous.signature_file_id === signature.id) {
    const rows = await signedRows(app, request.id);
    const kept = SIGNED_DOCUMENT_KINDS.every((k) => rows.some((r) => r.kind === k && r.fileId === previous.files[k]));
    if (kept) return { formData: { signed_documents: previous }, created: [] };
  }

  const png = await app.storage.get(signature.storageKey);
  if (!png) throw new FieldValidationError({ signature: [SIGNED_DOCUMENT_MESSAGES.unreadableSignature] }, SIGNED_DOCUMENT_MESSAGES.unreadableSignature);
  const sources = templates ?? loadSignedDocumentTemplates();
  const values = templateValues(request, email, app.config.productName, now);
  const pdfs: { kind: SignedDocumentKind; fileName: string; data: Buffer }[] = [];
  for (const document of SIGNED_DOCUMENTS) {
    const blocks = renderTemplate(sources.get(document.kind)!, values, document.template);
    let data: Uint8Array;
    try {
      data = await documentPdf({ title: document.title, author: app.config.productName, blocks, signaturePng: png, date: now });
    } catch (error) {
      // The stored signature is a PNG by its first bytes, yet pdf-lib cannot read it: the applicant signs again.
      app.log.warn({ err: error, requestId: request.id }, 'signed documents: the signature image could not be embedded');
      throw new FieldValidationError({ signature: [SIGNED_DOCUMENT_MESSAGES.unreadableSignature] }, SIGNED_DOCUMENT_MESSAGES.unreadableSignature);
    }
    pdfs.push({ kind: document.kind, fileName: document.fileName, data: Buffer.from(data) });
  }

  const created: number[] = [];
  const files = {} as Record<SignedDocumentKind, number>;
  try {
    for (const pdf of pdfs) {
      const stored = await saveFile(app, request.userId, { data: pdf.data, originalName: pdf.fileName, contentType: 'application/pdf', clean: true });
      created.push(stored.id);
      await app.db.insert(requestDocuments).values({ requestId: request.id, fileId: stored.id, kind: pdf.kind });
      files[pdf.kind] = stored.id;
    }
  } catch (error) {
    await deleteFiles(app, created);
    throw error;
  }
  return { formData: { signed_documents: { signature_file_id: signature.id, generated_at: now.toISOString(), files } }, created };
}

/** After the request was written: the request's signed documents other than those its form_data names go. */
export async function removeSupersededDocuments(app: FastifyInstance, requestId: number, kept: SignedDocumentsRecord | undefined): Promise<void> {
  if (!kept) return;
  const keep = new Set(Object.values(kept.files));
  const rows = await signedRows(app, requestId);
  await deleteFiles(
    app,
    rows.map((r) => r.fileId).filter((id) => !keep.has(id)),
  );
}

/** The request's signed documents (the applicant's files), contract first: what the operator command lists and downloads. */
export async function signedDocumentsOf(db: Db, request: Pick<RequestRow, 'id' | 'userId'>) {
  const rows = await db
    .select({ id: filesTable.id, kind: requestDocuments.kind, name: filesTable.originalName, size: filesTable.size, storageKey: filesTable.storageKey })
    .from(requestDocuments)
    .innerJoin(filesTable, eq(filesTable.id, requestDocuments.fileId))
    .where(and(eq(requestDocuments.requestId, request.id), inArray(requestDocuments.kind, SIGNED_DOCUMENT_KINDS), eq(filesTable.userId, request.userId)))
    .orderBy(asc(requestDocuments.id));
  return rows.sort((a, b) => SIGNED_DOCUMENT_KINDS.indexOf(a.kind as SignedDocumentKind) - SIGNED_DOCUMENT_KINDS.indexOf(b.kind as SignedDocumentKind));
}
