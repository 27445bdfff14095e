import type { MediaFile, StepFormContext } from '../types';

/**
 * What the file chooser offers (spec 001 §5): images, HEIC, PDF, DOC, DOCX — exactly what the server
 * accepts by content (server/lib/image-type.ts: JPEG, PNG, WebP, HEIC/HEIF), so a GIF or BMP is not
 * offered only to be refused after the upload.
 */
export const DOCUMENT_ACCEPT = [
  'image/jpeg,image/png,image/webp,image/heic,image/heif',
  '.jpg,.jpeg,.png,.webp,.heic,.heif',
  '.pdf,application/pdf',
  '.doc,application/msword',
  '.docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document',
].join(',');

export const IMAGE_NAME = /\.(jpe?g|png|webp|gif)$/i;

/** A file chosen in this visit, sent with the step's multipart submit. */
export interface Pending {
  key: string;
  file: File;
  /** Object URL of an image the browser can show, else null (a document icon instead). */
  preview: string | null;
}

/** A file the request already holds (`media` entries). */
export type SavedFile = MediaFile & { name?: string };

export function savedList(media: StepFormContext['media'] | undefined, key: string): SavedFile[] {
  const list = media?.[key];
  return Array.isArray(list) ? (list as SavedFile[]) : [];
}

let counter = 0;
export function toPending(file: File): Pending {
  counter += 1;
  const showable = file.type.startsWith('image/') && !/hei[cf]/i.test(file.type) && typeof URL.createObjectURL === 'function';
  return { key: `p${counter}`, file, preview: showable ? URL.createObjectURL(file) : null };
}

/** Revokes the previews' object URLs. */
export function release(list: Pending[]) {
  for (const p of list) if (p.preview && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(p.preview);
}

export function extension(name: string): string {
  const match = /\.([a-z0-9]{1,5})$/i.exec(name);
  return match ? match[1].toUpperCase() : 'DOC';
}
