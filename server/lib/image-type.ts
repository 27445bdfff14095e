/** An image format recognised by its first bytes, whatever the file's name or declared type. */
export interface ImageType {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic' | 'image/heif';
  extension: 'jpg' | 'png' | 'webp' | 'heic' | 'heif';
}

/** ISO-BMFF major brands of HEIC (HEVC-coded) and other HEIF images. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2']);

/**
 * JPEG, PNG, WebP or HEIC/HEIF by magic bytes (spec 000 §5: jpeg, jpg, png, heif, heic, webp);
 * null for anything else.
 */
export function detectImageType(data: Buffer): ImageType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    return { contentType: 'image/jpeg', extension: 'jpg' };
  }
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { contentType: 'image/png', extension: 'png' };
  }
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    return { contentType: 'image/webp', extension: 'webp' };
  }
  if (data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp') {
    const brand = data.toString('latin1', 8, 12);
    if (HEIC_BRANDS.has(brand)) return { contentType: 'image/heic', extension: 'heic' };
    if (HEIF_BRANDS.has(brand)) {
      // A generic HEIF brand: HEVC-coded when a compatible brand says so.
      const boxSize = Math.min(data.readUInt32BE(0), data.length);
      const compatible: string[] = [];
      for (let offset = 16; offset + 4 <= boxSize; offset += 4) compatible.push(data.toString('latin1', offset, offset + 4));
      if (compatible.some((b) => HEIC_BRANDS.has(b))) return { contentType: 'image/heic', extension: 'heic' };
      // AVIF shares the HEIF container but is not on the list.
      if (compatible.some((b) => b === 'avif' || b === 'avis')) return null;
      return { contentType: 'image/heif', extension: 'heif' };
    }
  }
  return null;
}
