import sharp from 'sharp';

/** The photo could not be decoded: it is refused rather than stored with its metadata. */
export class UnreadableImageError extends Error {
  constructor() {
    super('unreadable image');
  }
}

const REENCODED = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * The bytes to store for an upload, without what a phone writes into a photo (EXIF with GPS
 * position, camera and time; XMP; comments). JPEG, PNG and WebP are decoded and encoded again by
 * sharp in the same format, turned upright first by their EXIF orientation (`.rotate()`); sharp
 * writes no metadata unless asked. HEIC/HEIF cannot be decoded by sharp's prebuilt libvips (its
 * libheif has no HEVC decoder), so the container is kept and its Exif and XMP items are blanked in
 * place (see `blankHeifMetadata`). PDF, DOC and DOCX are kept as they are.
 */
export async function stripMetadata(data: Buffer, contentType: string): Promise<Buffer> {
  if (contentType === 'image/heic' || contentType === 'image/heif') return blankHeifMetadata(data);
  if (!REENCODED.has(contentType)) return data;
  try {
    const image = sharp(data, { failOn: 'error', limitInputPixels: 100_000_000 }).rotate();
    if (contentType === 'image/jpeg') return await image.jpeg({ quality: 90, mozjpeg: false }).toBuffer();
    if (contentType === 'image/png') return await image.png().toBuffer();
    return await image.webp({ quality: 90 }).toBuffer();
  } catch {
    throw new UnreadableImageError();
  }
}

interface Box {
  type: string;
  /** Offset of the box's content (after size and type). */
  start: number;
  end: number;
}

function boxes(data: Buffer, from: number, to: number): Box[] {
  const found: Box[] = [];
  let offset = from;
  while (offset + 8 <= to) {
    let size = data.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > to) break;
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) size = to - offset;
    if (size < header || offset + size > to) break;
    found.push({ type: data.toString('latin1', offset + 4, offset + 8), start: offset + header, end: offset + size });
    offset += size;
  }
  return found;
}

function readUInt(data: Buffer, offset: number, bytes: number): number {
  if (bytes === 0) return 0;
  if (bytes === 2) return data.readUInt16BE(offset);
  if (bytes === 4) return data.readUInt32BE(offset);
  if (bytes === 8) return Number(data.readBigUInt64BE(offset));
  throw new RangeError('field size');
}

/** Ids of the `Exif` items and of the XMP (`mime` application/rdf+xml) items listed in `iinf`. */
function metadataItems(data: Buffer, iinf: Box): Set<number> {
  const ids = new Set<number>();
  const version = data[iinf.start];
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxes(data, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const v = data[infe.start];
    if (v < 2) continue;
    let p = infe.start + 4;
    const id = v === 2 ? data.readUInt16BE(p) : data.readUInt32BE(p);
    p += (v === 2 ? 2 : 4) + 2;
    const type = data.toString('latin1', p, p + 4);
    if (type === 'Exif') ids.add(id);
    if (type === 'mime') {
      const rest = data.subarray(p + 4, infe.end);
      const name = rest.subarray(0, rest.indexOf(0)).toString('latin1'); // item_name
      const contentType = rest.subarray(name.length + 1).toString('latin1').split('\0')[0];
      if (contentType === 'application/rdf+xml') ids.add(id);
    }
  }
  return ids;
}

/**
 * A copy of a HEIF/HEIC file whose Exif and XMP item bytes (located through `meta`/`iloc`) are
 * overwritten with zeros: the image items are untouched, readers find an empty, invalid Exif
 * block and ignore it. A file whose boxes cannot be read is returned as is (nothing in it can be
 * found by a reader either).
 */
export function blankHeifMetadata(input: Buffer): Buffer {
  const data = Buffer.from(input);
  try {
    const meta = boxes(data, 0, data.length).find((b) => b.type === 'meta');
    if (!meta) return data;
    const children = boxes(data, meta.start + 4, meta.end);
    const iinf = children.find((b) => b.type === 'iinf');
    const iloc = children.find((b) => b.type === 'iloc');
    const idat = children.find((b) => b.type === 'idat');
    if (!iinf || !iloc) return data;
    const wanted = metadataItems(data, iinf);
    if (!wanted.size) return data;

    const version = data[iloc.start];
    let p = iloc.start + 4;
    const offsetSize = data[p] >> 4;
    const lengthSize = data[p] & 0x0f;
    const baseOffsetSize = data[p + 1] >> 4;
    const indexSize = version === 1 || version === 2 ? data[p + 1] & 0x0f : 0;
    p += 2;
    const count = version < 2 ? data.readUInt16BE(p) : data.readUInt32BE(p);
    p += version < 2 ? 2 : 4;
    for (let i = 0; i < count; i += 1) {
      const id = version < 2 ? data.readUInt16BE(p) : data.readUInt32BE(p);
      p += version < 2 ? 2 : 4;
      let method = 0;
      if (version === 1 || version === 2) {
        method = data.readUInt16BE(p) & 0x0f;
        p += 2;
      }
      p += 2; // data_reference_index
      const base = readUInt(data, p, baseOffsetSize);
      p += baseOffsetSize;
      const extents = data.readUInt16BE(p);
      p += 2;
      for (let e = 0; e < extents; e += 1) {
        p += indexSize;
        const offset = readUInt(data, p, offsetSize);
        p += offsetSize;
        const length = readUInt(data, p, lengthSize);
        p += lengthSize;
        if (!wanted.has(id)) continue;
        const origin = method === 0 ? 0 : method === 1 && idat ? idat.start : -1;
        if (origin < 0) continue;
        const from = origin + base + offset;
        const to = length === 0 ? (method === 1 && idat ? idat.end : data.length) : from + length;
        if (from >= 0 && to <= data.length && from < to) data.fill(0, from, to);
      }
    }
  } catch {
    // A box ran past the end: keep what was blanked so far.
  }
  return data;
}
