import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FlowStep } from '../../src/core/flow';
import type { Db } from '../db';
import { files, requestDocuments } from '../db/schema';
import { deleteFiles, fileUrl, saveFile } from '../files/files';
import { stripMetadata } from '../files/strip-metadata';
import { FieldValidationError } from '../lib/http-errors';
import { detectDocumentType } from '../lib/image-type';
import { indexedFiles, type UploadedFile } from '../lib/multipart';
import type { RequestRow, StepRule } from './model';
import { stepOptions } from './rules/options';

/**
 * The documents step (spec 001 §2 item 2, §3 "diploma document files", §4 "Driver licence" and
 * "Diploma", §7 `…/collect/diploma-documents`, `…/delete/diploma-documents`): diplomas (or the
 * professional documents of the activity) and, where the step's `licence` option says so, a
 * driving licence (courier, taxi with the ARR attestation) or a credit-consultant certificate.
 * Files are kept in `files` and linked to the request in `request_documents` by kind.
 */

export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_MAX_FILES = 10;

export type DocumentKind = 'diploma' | 'driver_license';
/** 0 has none (courier only), 1 send later, 2 upload now (spec 001 §4). */
export type LicenceStatus = 0 | 1 | 2;
export type LicenceOption = 'courier' | 'taxi' | 'credit-certificate' | null;

export const DOCUMENT_MESSAGES = {
  rejected: 'Formatul sau dimensiunea documentului încărcat nu sunt acceptate.',
  tooMany: `Poți trimite cel mult ${DOCUMENT_MAX_FILES} fișiere odată.`,
  diplomaMissing: 'Încarcă cel puțin un document sau alege „Trimit mai târziu”.',
  licenceStatus: 'Alege una dintre opțiuni.',
  noLicenceCourierOnly: 'Opțiunea „Nu am permis de conducere” este disponibilă doar pentru curieri.',
  licenceMissing: 'Încarcă cel puțin un document sau alege altă opțiune.',
  deleteFailed: 'Eroare la ștergerea imaginii!',
  deleted: 'Documentul a fost șters.',
  notFound: 'Documentul nu a fost găsit.',
} as const;

export interface StepDocumentOptions {
  licence: LicenceOption;
  /** The licence answer fixed by the flow (the credit partner: 1, the certificate comes from the partner); null: the applicant answers. */
  licenceStatus: LicenceStatus | null;
  /** Whether "Nu am permis de conducere" (0) may be chosen (the courier activity). */
  noLicenceChoice: boolean;
}

/** The licence options of the documents step as the flow resolves them for the request (partner and activity variants). */
export function documentOptions(step: Pick<FlowStep, 'uiSchema'> | undefined): StepDocumentOptions {
  const options = stepOptions(step);
  const licence = options.licence;
  const fixed = options.licenceStatus;
  return {
    licence: licence === 'courier' || licence === 'taxi' || licence === 'credit-certificate' ? licence : null,
    licenceStatus: fixed === 0 || fixed === 1 || fixed === 2 ? fixed : null,
    noLicenceChoice: options.noLicenceChoice === true,
  };
}

/** The request's documents of a kind, oldest first. */
export async function requestDocumentFiles(db: Db, requestId: number, kind?: DocumentKind) {
  const where = kind ? and(eq(requestDocuments.requestId, requestId), eq(requestDocuments.kind, kind)) : eq(requestDocuments.requestId, requestId);
  return db
    .select({ id: files.id, name: files.originalName, kind: requestDocuments.kind })
    .from(requestDocuments)
    .innerJoin(files, eq(files.id, requestDocuments.fileId))
    .where(where)
    .orderBy(asc(requestDocuments.id));
}

/** `media.diploma_documents` and `media.driver_license` of the serialized request: `[{ id, name, url }]`. */
export async function documentMedia(db: Db, request: RequestRow) {
  return documentMediaOf(await requestDocumentFiles(db, request.id));
}

/** `media.diploma_documents` and `media.driver_license` from the request's document rows, oldest first. */
export function documentMediaOf(rows: { id: number; name: string; kind: string }[]) {
  const list = (kind: DocumentKind) => rows.filter((r) => r.kind === kind).map((r) => ({ id: r.id, name: r.name, url: fileUrl(r.id) }));
  return { diploma_documents: list('diploma'), driver_license: list('driver_license') };
}

/** Removes the request's documents of a kind (their files and bytes). */
async function deleteDocuments(app: FastifyInstance, requestId: number, kind: DocumentKind): Promise<void> {
  const rows = await requestDocumentFiles(app.db, requestId, kind);
  await deleteFiles(
    app,
    rows.map((r) => r.id),
  );
}

function parseBoolean(value: unknown): boolean {
  return value === true || value === 'true';
}

function parseStatus(value: unknown): LicenceStatus | null {
  const n = typeof value === 'string' && value !== '' ? Number(value) : value;
  return n === 0 || n === 1 || n === 2 ? n : null;
}

/** Each file checked by content and size; the 422 keys are the browser's `files.N` / `driverLicenseFiles.N`. */
async function checkFiles(groups: { field: string; files: { index: number; file: UploadedFile }[] }[]) {
  const errors: Record<string, string[]> = {};
  const accepted: Record<string, { file: UploadedFile; contentType: string }[]> = {};
  for (const { field, files: list } of groups) {
    accepted[field] = [];
    for (const { index, file } of list) {
      const type = detectDocumentType(file.data);
      if (!type || file.data.length === 0 || file.data.length > DOCUMENT_MAX_BYTES) errors[`${field}.${index}`] = [DOCUMENT_MESSAGES.rejected];
      else {
        // Images are stored without their metadata (EXIF/GPS); one that cannot be decoded is refused here.
        const data = await stripMetadata(file.data, type.contentType).catch(() => null);
        if (data) accepted[field].push({ file: { ...file, data }, contentType: type.contentType });
        else errors[`${field}.${index}`] = [DOCUMENT_MESSAGES.rejected];
      }
    }
  }
  return { errors, accepted };
}

/**
 * `POST /api/registration/collect/diploma-documents` (multipart: send_diploma_later,
 * driver_license_status, files[n], driverLicenseFiles[n]). Every file is checked first (images,
 * PDF, DOC, DOCX by content, at most 10 MB, at most 10 per submit); one bad file stores nothing.
 * Diplomas: send later (saved diplomas are removed, spec §4 "choosing send-later clears all files")
 * or at least one saved or new file. Licence (only when the step has a `licence` option): 0 only
 * only where the step offers it (`noLicenceChoice`: the courier), 2 needs at least one saved or new
 * file, anything but 2 removes the saved ones; a `licenceStatus` the flow fixes (the credit
 * partner: 1) is kept whatever is sent, and no licence file with it unless it is 2.
 */
export const documentsRule: StepRule = async ({ app, body, request, files: uploads, step }) => {
  const { licence, licenceStatus, noLicenceChoice } = documentOptions(step);
  const later = parseBoolean(body.send_diploma_later);
  const sentStatus = parseStatus(body.driver_license_status);
  const diplomas = indexedFiles(uploads, 'files');
  const licences = indexedFiles(uploads, 'driverLicenseFiles');

  if (diplomas.length + licences.length > DOCUMENT_MAX_FILES) {
    throw new FieldValidationError({ files: [DOCUMENT_MESSAGES.tooMany] }, DOCUMENT_MESSAGES.tooMany);
  }
  const { errors, accepted } = await checkFiles([
    { field: 'files', files: diplomas },
    { field: 'driverLicenseFiles', files: licences },
  ]);
  if (Object.keys(errors).length) throw new FieldValidationError(errors, DOCUMENT_MESSAGES.rejected);

  // The licence answer.
  const licenceBlock = licence !== null && licenceStatus === null;
  let status: LicenceStatus | null = null;
  if (licenceStatus !== null) status = licenceStatus;
  else if (licenceBlock) {
    if (sentStatus === null) throw new FieldValidationError({ driver_license_status: [DOCUMENT_MESSAGES.licenceStatus] }, DOCUMENT_MESSAGES.licenceStatus);
    if (sentStatus === 0 && !noLicenceChoice) {
      throw new FieldValidationError({ driver_license_status: [DOCUMENT_MESSAGES.noLicenceCourierOnly] }, DOCUMENT_MESSAGES.noLicenceCourierOnly);
    }
    status = sentStatus;
  }
  const savedLicences = await requestDocumentFiles(app.db, request.id, 'driver_license');
  if (status === 2 && savedLicences.length + accepted.driverLicenseFiles.length === 0) {
    throw new FieldValidationError({ driverLicenseFiles: [DOCUMENT_MESSAGES.licenceMissing] }, DOCUMENT_MESSAGES.licenceMissing);
  }

  // The diplomas.
  const savedDiplomas = later ? [] : await requestDocumentFiles(app.db, request.id, 'diploma');
  if (!later && savedDiplomas.length + accepted.files.length === 0) {
    throw new FieldValidationError({ files: [DOCUMENT_MESSAGES.diplomaMissing] }, DOCUMENT_MESSAGES.diplomaMissing);
  }

  // Everything is valid: now change what is stored.
  if (later) await deleteDocuments(app, request.id, 'diploma');
  if (status !== 2 && savedLicences.length) await deleteDocuments(app, request.id, 'driver_license');
  const toStore: { kind: DocumentKind; file: UploadedFile; contentType: string }[] = [
    ...(later ? [] : accepted.files.map((f) => ({ kind: 'diploma' as const, ...f }))),
    ...(status === 2 ? accepted.driverLicenseFiles.map((f) => ({ kind: 'driver_license' as const, ...f })) : []),
  ];
  for (const { kind, file, contentType } of toStore) {
    const stored = await saveFile(app, request.userId, { data: file.data, originalName: file.filename || 'document', contentType, clean: true });
    try {
      await app.db.insert(requestDocuments).values({ requestId: request.id, fileId: stored.id, kind });
    } catch (error) {
      await deleteFiles(app, [stored.id]);
      throw error;
    }
  }
  return { send_diploma_later: later, driver_license_status: status };
};

/**
 * Removes one document of the request (`POST /api/registration/delete/diploma-documents`): only a
 * file linked to this request (another user's file is as good as missing). Answers the new
 * driver_license_status when the last licence file went while it was 2 (it goes back to 1).
 */
export async function deleteRequestDocument(app: FastifyInstance, request: RequestRow, fileId: number): Promise<{ kind: DocumentKind; licenceBackToLater: boolean } | null> {
  const [row] = await app.db
    .select({ kind: requestDocuments.kind })
    .from(requestDocuments)
    .innerJoin(files, eq(files.id, requestDocuments.fileId))
    .where(and(eq(requestDocuments.requestId, request.id), eq(requestDocuments.fileId, fileId), eq(files.userId, request.userId)));
  // Only the applicant's uploads: the trade register's documents (attached by an operator) and the
  // signed contract and power of attorney (made when the dossier was sent) are not theirs to delete.
  if (!row || (row.kind !== 'diploma' && row.kind !== 'driver_license')) return null;
  await deleteFiles(app, [fileId]);
  if (row.kind !== 'driver_license') return { kind: row.kind, licenceBackToLater: false };
  const left = await app.db
    .select({ id: requestDocuments.id })
    .from(requestDocuments)
    .where(and(eq(requestDocuments.requestId, request.id), eq(requestDocuments.kind, 'driver_license')));
  return { kind: row.kind, licenceBackToLater: left.length === 0 && request.formData.driver_license_status === 2 };
}
