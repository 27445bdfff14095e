import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { files } from '../db/schema';
import { deleteFiles, fileUrl, findUserFile, saveFile } from '../files/files';
import { FieldValidationError } from '../lib/http-errors';
import { detectImageType } from '../lib/image-type';
import type { RequestRow, StepRule } from './model';

/**
 * The signature step (spec 001 §2 item 5, §4 "Signature", §7 `…/collect/signature`,
 * `…/delete/signature`): the drawing arrives as a PNG (multipart `file`), is stored as
 * semnatura.png for the user and its file id is kept in form_data (`signature_file_id`).
 * An empty pad with a saved signature sends no file and keeps the saved one.
 */

export const SIGNATURE_FILE_NAME = 'semnatura.png';
/** The largest signature PNG accepted (a 1280×233 pad at 3× pixel ratio is far below it). */
export const SIGNATURE_MAX_BYTES = 2 * 1024 * 1024;

export const SIGNATURE_MESSAGES = {
  notPng: 'Semnătura trebuie să fie o imagine PNG.',
  tooLarge: 'Semnătura poate avea cel mult 2 MB.',
  missing: 'Semnează în chenar înainte de a merge mai departe.',
  deleted: 'Semnătura a fost ștearsă.',
} as const;

/** The id form_data names as the saved signature, or null. */
export function signatureFileIdOf(formData: Record<string, unknown>): number | null {
  const id = formData.signature_file_id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The saved signature of a request as the API returns it (`media.signature_document` and
 * `signature_file_id`): only a file that still exists and belongs to the request's user.
 */
export async function savedSignature(db: Db, request: RequestRow): Promise<{ id: number; url: string } | null> {
  const id = signatureFileIdOf(request.formData);
  if (!id) return null;
  const [row] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, id), eq(files.userId, request.userId)));
  return row ? { id: row.id, url: fileUrl(row.id) } : null;
}

/** Removes the user's saved signature file (a file of another user is never touched). */
export async function deleteSignatureFile(app: FastifyInstance, userId: number, id: number | null): Promise<void> {
  if (!id) return;
  const file = await findUserFile(app, userId, id);
  if (file) await deleteFiles(app, [file.id]);
}

/**
 * `POST /api/registration[/existing]/collect/signature`: with a file, a PNG by content of at most
 * 2 MB, stored as semnatura.png (the previous signature file is deleted); without one, allowed
 * only when a saved signature exists and the pad was not meant to carry a new drawing.
 */
export const signatureRule: StepRule = async ({ app, body, request, files: uploads }) => {
  const file = uploads.file;
  const savedId = signatureFileIdOf(request.formData);
  if (!file) {
    const saved = savedId && body.signature !== 'new' ? await findUserFile(app, request.userId, savedId) : null;
    if (!saved) throw new FieldValidationError({ file: [SIGNATURE_MESSAGES.missing] }, SIGNATURE_MESSAGES.missing);
    return { signature_file_id: saved.id, signed_at: new Date().toISOString() };
  }
  if (detectImageType(file.data)?.contentType !== 'image/png') {
    throw new FieldValidationError({ file: [SIGNATURE_MESSAGES.notPng] }, SIGNATURE_MESSAGES.notPng);
  }
  if (file.data.length > SIGNATURE_MAX_BYTES) {
    throw new FieldValidationError({ file: [SIGNATURE_MESSAGES.tooLarge] }, SIGNATURE_MESSAGES.tooLarge);
  }
  const stored = await saveFile(app, request.userId, { data: file.data, originalName: SIGNATURE_FILE_NAME, contentType: 'image/png' });
  if (savedId && savedId !== stored.id) await deleteSignatureFile(app, request.userId, savedId);
  // When the dossier was signed: the existing PFA's onboarding ends here (the dashboard takes over).
  return { signature_file_id: stored.id, signed_at: new Date().toISOString() };
};
