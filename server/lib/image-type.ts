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

/** A document format accepted for diplomas and licences (spec 001 §5): the images above, PDF, DOC, DOCX. */
export interface DocumentType {
  contentType:
    | ImageType['contentType']
    | 'application/pdf'
    | 'application/msword'
    | 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  extension: ImageType['extension'] | 'pdf' | 'doc' | 'docx';
}

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * True for a ZIP whose central directory names an entry under `word/` (a Word document); the
 * names are read from the central directory that the end-of-central-directory record points to.
 */
function isWordZip(data: Buffer): boolean {
  if (data.length < 22 || data.readUInt32LE(0) !== 0x04034b50) return false;
  // The end record is in the last 22 + 65535 (comment) bytes.
  const from = Math.max(0, data.length - 22 - 0xffff);
  for (let end = data.length - 22; end >= from; end -= 1) {
    if (data.readUInt32LE(end) !== 0x06054b50) continue;
    const entries = data.readUInt16LE(end + 10);
    let offset = data.readUInt32LE(end + 16);
    for (let i = 0; i < entries && offset + 46 <= data.length; i += 1) {
      if (data.readUInt32LE(offset) !== 0x02014b50) return false;
      const nameLength = data.readUInt16LE(offset + 28);
      const extraLength = data.readUInt16LE(offset + 30);
      const commentLength = data.readUInt16LE(offset + 32);
      const name = data.toString('latin1', offset + 46, Math.min(data.length, offset + 46 + nameLength));
      if (name.startsWith('word/')) return true;
      offset += 46 + nameLength + extraLength + commentLength;
    }
    return false;
  }
  return false;
}

/** An accepted document by content (images, `%PDF`, OLE compound file for DOC, ZIP with `word/` for DOCX); null otherwise. */
export function detectDocumentType(data: Buffer): DocumentType | null {
  const image = detectImageType(data);
  if (image) return image;
  if (data.length >= 5 && data.toString('latin1', 0, 5) === '%PDF-') return { contentType: 'application/pdf', extension: 'pdf' };
  if (data.length >= 8 && data.subarray(0, 8).equals(OLE_SIGNATURE)) return { contentType: 'application/msword', extension: 'doc' };
  if (isWordZip(data)) return { contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extension: 'docx' };
  return null;
}
