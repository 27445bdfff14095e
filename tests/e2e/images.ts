import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG photo stand-in (width×height, one colour with a stripe), valid for the browser's
 * decoder and the server's content check. No fixture files: each test makes what it uploads.
 */
export function pngImage(width = 640, height = 400, rgb: [number, number, number] = [40, 90, 160]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.alloc(1 + width * 3);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const stripe = y % 40 < 8;
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = stripe ? 255 : rgb[0];
      row[2 + x * 3] = stripe ? 255 : rgb[1];
      row[3 + x * 3] = stripe ? 255 : rgb[2];
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The three identity photos, as Playwright `setInputFiles` payloads; `reject` in a name makes the simulator decline. */
export function identityPhotos(prefix = 'buletin') {
  return {
    'document-front': { name: `${prefix}-fata.png`, mimeType: 'image/png', buffer: pngImage(640, 400, [40, 90, 160]) },
    'document-back': { name: `${prefix}-spate.png`, mimeType: 'image/png', buffer: pngImage(640, 400, [160, 90, 40]) },
    face: { name: `${prefix}-selfie.png`, mimeType: 'image/png', buffer: pngImage(400, 600, [200, 160, 140]) },
  } as const;
}

/** Width and height of a JPEG (from its first SOFn marker), or null when `data` is not a JPEG. */
export function jpegSize(data: Buffer): { width: number; height: number } | null {
  if (data[0] !== 0xff || data[1] !== 0xd8) return null;
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1];
    const length = data.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return null;
}
