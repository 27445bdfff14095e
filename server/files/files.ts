import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { files } from '../db/schema';
import { newStorageKey } from '../storage/file-storage';
import { FieldValidationError } from '../lib/http-errors';
import { UnreadableImageError, stripMetadata } from './strip-metadata';

export type FileRow = typeof files.$inferSelect;

/** The owner-only address of a stored file (`GET /api/files/:id`). */
export function fileUrl(id: number): string {
  return `/api/files/${id}`;
}

/** Keeps a name fit for display and for a Content-Disposition header: no path, no control characters. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return (cleaned || 'fisier').slice(0, 200);
}

export const UNREADABLE_IMAGE = 'Imaginea nu poate fi citită. Te rugăm să încarci o fotografie JPG, PNG, WebP sau HEIC.';

/**
 * The bytes of an upload as they will be stored: images without EXIF (GPS), XMP or comments
 * (`stripMetadata`); an image that cannot be decoded is a 422 on `field`.
 */
export async function cleanUpload(data: Buffer, contentType: string, field: string): Promise<Buffer> {
  try {
    return await stripMetadata(data, contentType);
  } catch (error) {
    if (error instanceof UnreadableImageError) throw new FieldValidationError({ [field]: [UNREADABLE_IMAGE] }, UNREADABLE_IMAGE);
    throw error;
  }
}

/**
 * Stores the bytes under a new random key and records the file as the user's. Images lose their
 * metadata first (docs/architecture.md "Headers, personal data, logs"), unless the caller already passed them through
 * `cleanUpload` (`clean: true`); `field` names the form field of a 422 for an unreadable image.
 */
export async function saveFile(
  app: FastifyInstance,
  userId: number,
  upload: { data: Buffer; originalName: string; contentType: string; clean?: boolean; field?: string },
): Promise<FileRow> {
  const file = { ...upload, data: upload.clean ? upload.data : await cleanUpload(upload.data, upload.contentType, upload.field ?? 'file') };
  const storageKey = newStorageKey();
  await app.storage.put(storageKey, file.data, file.contentType);
  try {
    const [row] = await app.db
      .insert(files)
      .values({ userId, storageKey, originalName: cleanName(file.originalName), contentType: file.contentType, size: file.data.length })
      .returning();
    return row;
  } catch (error) {
    await app.storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}

/** Removes files (their rows and their bytes). Rows that reference them go too (ON DELETE CASCADE). */
export async function deleteFiles(app: FastifyInstance, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const removed = await app.db.delete(files).where(inArray(files.id, ids)).returning({ storageKey: files.storageKey });
  for (const { storageKey } of removed) {
    await app.storage.delete(storageKey).catch((error: unknown) => app.log.warn({ err: error }, 'file storage: delete failed'));
  }
}

/** A file of this user, or null (someone else's file is as good as missing). */
export async function findUserFile(app: FastifyInstance, userId: number, id: number): Promise<FileRow | null> {
  const [row] = await app.db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.userId, userId)));
  return row ?? null;
}
