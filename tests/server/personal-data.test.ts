import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { UNREADABLE_IMAGE } from '../../server/files/files';
import { blankHeifMetadata, stripMetadata } from '../../server/files/strip-metadata';
import type { MemoryFileStorage } from '../../server/storage/file-storage';
import { auth, placeAtStep, registerUser, testApp } from './helpers';
import { createSession, multipartPayload, upload } from './identity-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const CAMERA = 'TelefonulMeu';
/** What a phone writes: camera, GPS position (Bucharest), and "turned on its side" (orientation 6). */
const EXIF = {
  IFD0: { Make: CAMERA, Model: 'X1' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '44/1 26/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '26/1 6/1 0/1' },
};

/** A 40×30 photo as a phone stores it: pixels landscape, EXIF orientation 6 (show it rotated 90°), GPS. */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif(EXIF)
    .toBuffer();
}

/** The GPS IFD pointer (tag 0x8825) in either byte order. */
const hasGps = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));

async function expectNoMetadata(data: Buffer) {
  const meta = await sharp(data).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(data.includes(CAMERA)).toBe(false);
  return meta;
}

describe('uploaded photos are stored without EXIF (GPS)', () => {
  it('the test photo does carry GPS and an orientation', async () => {
    const meta = await sharp(await phonePhoto()).metadata();
    expect(meta.orientation).toBe(6);
    expect(hasGps(meta.exif!)).toBe(true);
  });

  it('identity photo (POST /api/veriff/upload-image): GPS in, none out, turned upright', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const res = await upload(app, user.token, session.session_id, 'document-front', { filename: 'buletin.jpg', data: await phonePhoto() });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await app.inject({ method: 'GET', url: res.json().payload.preview_url, headers: auth(user.token) });
    expect(stored.statusCode).toBe(200);
    expect(stored.headers['content-type']).toBe('image/jpeg');
    const meta = await expectNoMetadata(stored.rawPayload);
    // Upright: the 40×30 pixels shown with orientation 6 are 30 wide and 40 high.
    expect({ width: meta.width, height: meta.height, orientation: meta.orientation }).toEqual({ width: 30, height: 40, orientation: undefined });
  });

  it('diploma (documents step): GPS in, none out', async () => {
    const user = await registerUser(app, { type: 2 });
    await placeAtStep(app, user, 'requesting-company-step-3');
    const { payload, contentType } = await multipartPayload({ current_step_identifier: 'requesting-company-step-3', send_diploma_later: 'false' }, [
      { name: 'files[0]', filename: 'diploma.jpg', data: await phonePhoto() },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: '/api/registration/collect/diploma-documents',
      payload,
      headers: { ...auth(user.token), 'content-type': contentType },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [doc] = res.json().payload.media.diploma_documents as { url: string }[];
    const stored = await app.inject({ method: 'GET', url: doc.url, headers: auth(user.token) });
    expect(stored.statusCode).toBe(200);
    await expectNoMetadata(stored.rawPayload);
  });

  it('a "JPEG" that cannot be decoded is refused with a field error, nothing stored', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const before = (app.storage as MemoryFileStorage).size;
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0', 'latin1'), Buffer.alloc(40, 3)]);
    const res = await upload(app, user.token, session.session_id, 'document-front', { filename: 'buletin.jpg', data: broken });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: UNREADABLE_IMAGE, payload: { media_file: [UNREADABLE_IMAGE] } });
    expect((app.storage as MemoryFileStorage).size).toBe(before);
  });

  it("another user's token cannot read the stored photo", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const session = await createSession(app, owner.token);
    const res = await upload(app, owner.token, session.session_id, 'document-front', { filename: 'buletin.jpg', data: await phonePhoto() });
    const foreign = await app.inject({ method: 'GET', url: res.json().payload.preview_url, headers: auth(other.token) });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('stripMetadata', () => {
  it('PNG and WebP are encoded again without EXIF; PDF bytes are kept as they are', async () => {
    const base = { create: { width: 4, height: 4, channels: 3 as const, background: { r: 1, g: 2, b: 3 } } };
    for (const [format, type] of [['png', 'image/png'], ['webp', 'image/webp']] as const) {
      const tagged = await sharp(base).toFormat(format).withExif(EXIF).toBuffer();
      expect((await sharp(tagged).metadata()).exif, format).toBeDefined();
      await expectNoMetadata(await stripMetadata(tagged, type));
    }
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
    expect((await stripMetadata(pdf, 'application/pdf')).equals(pdf)).toBe(true);
  });

  it('HEIF container (sharp cannot decode HEVC): the Exif item is blanked in place, the image item kept', async () => {
    // AVIF is the same HEIF container with an AV1 image, which sharp can write and read.
    const heif = await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 9, g: 9, b: 9 } } })
      .avif()
      .withExif(EXIF)
      .toBuffer();
    expect(heif.includes(CAMERA)).toBe(true);
    const blanked = blankHeifMetadata(heif);
    expect(blanked.length).toBe(heif.length);
    expect(blanked.includes(CAMERA)).toBe(false);
    const meta = await sharp(blanked).metadata();
    expect(meta.exif === undefined || meta.exif.every((b) => b === 0)).toBe(true);
    expect((await sharp(blanked).raw().toBuffer()).length).toBe(8 * 6 * 3);
    // Bytes that are no HEIF at all come back unchanged.
    const junk = Buffer.from('ftypheic and nothing else', 'latin1');
    expect(blankHeifMetadata(junk).equals(junk)).toBe(true);
  });
});
