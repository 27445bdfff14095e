import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { detectImageType } from '../../server/lib/image-type';
import { LocalFileStorage, MemoryFileStorage, createFileStorage, newStorageKey } from '../../server/storage/file-storage';
import { auth, registerUser, testApp } from './helpers';
import { HEIC, JPEG, PNG, TEXT, WEBP, createSession, upload } from './identity-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });

describe('GET /api/files/:id', () => {
  it('serves the bytes to their owner only, never cached or sniffed', async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const session = await createSession(app, owner.token);
    const { preview_url: url } = (await upload(app, owner.token, session.session_id, 'document-front', { filename: 'fața mea.jpg', data: JPEG })).json().payload;

    const res = await get(url, owner.token);
    expect(res.statusCode).toBe(200);
    // The photo as stored: the same picture, encoded again without metadata.
    const stored = await sharp(res.rawPayload).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: 2, height: 2 });
    expect(stored.exif).toBeUndefined();
    expect(res.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(res.headers['content-disposition']).toBe(`inline; filename="file-${url.split('/').pop()}"; filename*=UTF-8''${encodeURIComponent('fața mea.jpg')}`);

    const foreign = await get(url, other.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Fișierul nu a fost găsit.', payload: null });
  });

  it('404 for a file that does not exist, 422 for an id that is not a number', async () => {
    const user = await registerUser(app);
    expect((await get('/api/files/2147483000', user.token)).statusCode).toBe(404);
    const bad = await get('/api/files/abc', user.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().payload).toEqual({ id: ['Valoarea nu este validă.'] });
  });
});

describe('file storage', () => {
  it('memory storage for DATA_DIR=:memory:, a folder under DATA_DIR/files otherwise', () => {
    expect(createFileStorage({ dataDir: ':memory:' })).toBeInstanceOf(MemoryFileStorage);
    const local = createFileStorage({ dataDir: '/srv/data' });
    expect(local).toBeInstanceOf(LocalFileStorage);
    expect((local as LocalFileStorage).dir).toBe(path.join('/srv/data', 'files'));
  });

  it('local folder: put, get, delete under random names, nothing else reaches the disk', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pfa-files-'));
    try {
      const storage = new LocalFileStorage(path.join(dir, 'files'));
      const key = newStorageKey();
      expect(key).toMatch(/^[a-f0-9]{40}$/);
      await storage.put(key, PNG, 'image/png');
      expect((await storage.get(key))?.equals(PNG)).toBe(true);
      expect(fs.readdirSync(path.join(dir, 'files', key.slice(0, 2)))).toEqual([key]);
      await storage.delete(key);
      expect(await storage.get(key)).toBeNull();
      await storage.delete(key);
      await expect(storage.put('../../etc/passwd', PNG, 'image/png')).rejects.toThrow('invalid storage key');
      await expect(storage.get('../x')).rejects.toThrow('invalid storage key');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('memory storage keeps copies', async () => {
    const storage = new MemoryFileStorage();
    const key = newStorageKey();
    const data = Buffer.from(PNG);
    await storage.put(key, data, 'image/png');
    data[0] = 0;
    expect((await storage.get(key))?.equals(PNG)).toBe(true);
    await storage.delete(key);
    expect(storage.size).toBe(0);
  });
});

describe('image type by content', () => {
  it.each([
    ['jpeg', JPEG, 'image/jpeg'],
    ['png', PNG, 'image/png'],
    ['webp', WEBP, 'image/webp'],
    ['heic', HEIC, 'image/heic'],
  ])('%s', (_name, data, type) => {
    expect(detectImageType(data)?.contentType).toBe(type);
  });

  it('a generic HEIF brand, AVIF, text, PDF and empty files', () => {
    const heif = Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypmif1', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1', 'latin1'), Buffer.alloc(8)]);
    expect(detectImageType(heif)?.contentType).toBe('image/heif');
    const avif = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmif1', 'latin1'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1avif', 'latin1'), Buffer.alloc(8)]);
    expect(detectImageType(avif)).toBeNull();
    expect(detectImageType(TEXT)).toBeNull();
    expect(detectImageType(Buffer.from('%PDF-1.7\n', 'latin1'))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });
});
