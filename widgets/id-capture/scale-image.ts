/** Longest side of an uploaded identity photo: enough for a document check, small on a slow network. */
export const MAX_IMAGE_SIDE = 1920;

export interface ScaledImage {
  blob: Blob;
  fileName: string;
}

/** The new size of a `width`×`height` image whose longest side must not exceed `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height };
  const ratio = maxSide / longest;
  return { width: Math.round(width * ratio), height: Math.round(height * ratio) };
}

/**
 * Scales a photo down in the browser before upload (longest side 1920 px, JPEG 0.9): a 12 MP phone
 * photo of 4–6 MB becomes ~0.5 MB. Images the browser cannot decode (HEIC/HEIF outside Safari) or
 * that are already small go up unchanged; the server checks every file's content either way.
 */
export async function scaleImage(file: File, maxSide = MAX_IMAGE_SIDE): Promise<ScaledImage> {
  const original = { blob: file as Blob, fileName: file.name || 'fotografie.jpg' };
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return original;
  let bitmap: ImageBitmap;
  try {
    // Applies the EXIF orientation, so a portrait phone photo stays upright.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return original;
  }
  try {
    const size = fitWithin(bitmap.width, bitmap.height, maxSide);
    const tooLarge = size.width !== bitmap.width || size.height !== bitmap.height;
    // Within 1920 px: re-encode only a heavy file (an uncompressed screenshot, a 12-bit PNG).
    if (!tooLarge && file.size < 2 * 1024 * 1024) return original;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return original;
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    if (!blob || (!tooLarge && blob.size >= file.size)) return original;
    return { blob, fileName: file.name.replace(/\.[^.]*$/, '') + '.jpg' };
  } finally {
    bitmap.close();
  }
}
