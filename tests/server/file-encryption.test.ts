import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import sharp from 'sharp';
import { buildApp } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';
import { files } from '../../server/db/schema';
import {
  ENVELOPE_MAGIC,
  EncryptingStorage,
  FILES_KEY_FILE,
  FileDecryptionError,
  FileKeyRing,
  decryptBlob,
  encryptBlob,
  fileKeyRing,
  keyIdOf,
  newMasterKeyText,
  parseMasterKey,
  type MasterKey,
} from '../../server/storage/encryption';
import { FILES_ENCRYPTION_LOCK_KEY, encryptExistingFiles } from '../../server/storage/encrypt-existing';
import { LocalFileStorage, MemoryFileStorage, STORAGE_READ_FAILED, StorageUnavailableError, newStorageKey, type FileStorage } from '../../server/storage/file-storage';
import { S3FileStorage } from '../../server/storage/s3-storage';
import { auth, databaseUrl, registerUser, testConfig, testDatabase } from './helpers';
import { createSession, upload } from './identity-helpers';
import { PRODUCTION_ENV } from './production-env';
import { startS3 } from './s3-test-server';

const key = (id: string): MasterKey => ({ id, key: randomBytes(32) });
const K1 = key('k2025');
const K2 = key('k2026');
const PDF = Buffer.from('%PDF-1.7\nun contract semnat de Ion Popescu, CNP 1900101400011\n%%EOF\n');

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-enc-'));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** A photo of random pixels (no two 64-byte runs alike), `side`×`side` PNG. */
function noisePhoto(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
}

describe('the envelope (AES-256-GCM, a data key per file wrapped by the master key)', () => {
  const ring = new FileKeyRing(K2, [K1]);

  it('round-trips; the header names the key id; 96 bytes + the key id more than the file', () => {
    const name = newStorageKey();
    const blob = encryptBlob(PDF, name, K2);
    expect(blob.subarray(0, ENVELOPE_MAGIC.length)).toEqual(ENVELOPE_MAGIC);
    expect(keyIdOf(blob)).toBe('k2026');
    expect(blob.length).toBe(PDF.length + 96 + 'k2026'.length);
    expect(blob.includes(PDF.subarray(0, 16))).toBe(false);
    expect(decryptBlob(blob, name, ring)).toEqual(PDF);
    // A new data key and ivs each time: the same file twice is two different blobs.
    expect(encryptBlob(PDF, name, K2).equals(blob)).toBe(false);
    // An old key of the ring still opens what it wrapped.
    expect(decryptBlob(encryptBlob(PDF, name, K1), name, ring)).toEqual(PDF);
    expect(keyIdOf(PDF)).toBeNull();
  });

  it('refuses a blob moved under another storage key, altered anywhere, cut short, or under an unknown key', () => {
    const name = newStorageKey();
    const blob = encryptBlob(PDF, name, K2);
    const reason = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        expect(error).toBeInstanceOf(FileDecryptionError);
        return (error as FileDecryptionError).reason;
      }
      return 'opened';
    };
    expect(reason(() => decryptBlob(blob, newStorageKey(), ring))).toBe('tampered');
    // Every region: the version, the key id, the wrapped key, the ivs, the tags, the ciphertext.
    for (const at of [6, 9, 14, 30, 70, 80, 95, 100, blob.length - 1]) {
      const altered = Buffer.from(blob);
      altered[at] ^= 0x01;
      expect(reason(() => decryptBlob(altered, name, ring)), `byte ${at}`).not.toBe('opened');
    }
    expect(reason(() => decryptBlob(blob.subarray(0, 60), name, ring))).toBe('tampered');
    expect(reason(() => decryptBlob(blob.subarray(0, blob.length - 1), name, ring))).toBe('tampered');
    expect(reason(() => decryptBlob(encryptBlob(PDF, name, key('pierduta')), name, ring))).toBe('unknown-key');
    // Same id, another key (a key replaced instead of rotated): caught by the tags, not decrypted into garbage.
    expect(reason(() => decryptBlob(encryptBlob(PDF, name, key('k2026')), name, ring))).toBe('tampered');
  });

  it('reads keys as <id>:<base64 of 32 bytes> and refuses anything else', () => {
    const text = newMasterKeyText('k1');
    expect(parseMasterKey(text, 'X')).toMatchObject({ id: 'k1' });
    expect(parseMasterKey(text, 'X').key).toHaveLength(32);
    for (const bad of ['k1', `k1:${randomBytes(16).toString('base64')}`, `:${randomBytes(32).toString('base64')}`, `k 1:${randomBytes(32).toString('base64')}`]) {
      expect(() => parseMasterKey(bad, 'FILES_ENCRYPTION_KEY')).toThrow(/FILES_ENCRYPTION_KEY: not <key id>:<base64 of 32 random bytes>/);
    }
    expect(() => new FileKeyRing(K2, [K1, { ...K1, key: randomBytes(32) }])).toThrow(/key id "k2025" is given twice/);
  });
});

describe('EncryptingStorage over the local folder', () => {
  it('stores ciphertext only; reads it back; a file stored before encryption is read as it is', async () => {
    const dir = tempDir();
    const local = new LocalFileStorage(path.join(dir, 'files'));
    const storage = new EncryptingStorage(local, new FileKeyRing(K2, [K1]));
    const name = newStorageKey();
    await storage.put(name, PDF, 'application/pdf');
    const onDisk = fs.readFileSync(path.join(dir, 'files', name.slice(0, 2), name));
    expect(keyIdOf(onDisk)).toBe('k2026');
    expect(onDisk.includes(Buffer.from('Ion Popescu'))).toBe(false);
    expect(await storage.get(name)).toEqual(PDF);
    expect(await local.head(name, 8)).toEqual(onDisk.subarray(0, 8));

    const legacy = newStorageKey();
    await local.put(legacy, PDF, 'application/pdf');
    expect(await storage.get(legacy)).toEqual(PDF);

    expect(await storage.get(newStorageKey())).toBeNull();
    expect(await local.head(newStorageKey(), 8)).toBeNull();
    await storage.delete(name);
    expect(await storage.get(name)).toBeNull();
  });

  it('an unknown key id or an altered blob: StorageUnavailableError (503, the Romanian read message), the cause kept for the log', async () => {
    const local = new LocalFileStorage(path.join(tempDir(), 'files'));
    const storage = new EncryptingStorage(local, new FileKeyRing(K2));
    const lost = newStorageKey();
    await new EncryptingStorage(local, new FileKeyRing(key('pierduta'))).put(lost, PDF, 'application/pdf');
    const error = await storage.get(lost).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({ statusCode: 503, message: STORAGE_READ_FAILED });
    expect((error as Error).cause).toMatchObject({ reason: 'unknown-key', message: expect.stringContaining('"pierduta" is not configured') });

    const altered = newStorageKey();
    await storage.put(altered, PDF, 'application/pdf');
    const file = path.join(local.dir, altered.slice(0, 2), altered);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 5] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const tampered = await storage.get(altered).catch((e: unknown) => e);
    expect(tampered).toMatchObject({ statusCode: 503, message: STORAGE_READ_FAILED });
    expect((tampered as Error).cause).toMatchObject({ reason: 'tampered' });
  });

  it('encrypts a 330 KiB photo quickly (figure in the report)', async () => {
    const photo = randomBytes(330 * 1024);
    const name = newStorageKey();
    encryptBlob(photo, name, K2); // warm-up
    const rounds = 20;
    let start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) encryptBlob(photo, name, K2);
    const encryptMs = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
    const blob = encryptBlob(photo, name, K2);
    start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) decryptBlob(blob, name, new FileKeyRing(K2));
    const decryptMs = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
    // Measured on this machine: well under a millisecond each; the bound only catches a pathology.
    expect(encryptMs).toBeLessThan(50);
    expect(decryptMs).toBeLessThan(50);
  });
});

describe('EncryptingStorage over S3 (s3rver)', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    s3 = await startS3('ghiseu-enc');
  });
  afterAll(() => s3.close());

  it('the bucket holds the envelope only, typed application/octet-stream; round trip, head and re-encryption', async () => {
    const bucket = new S3FileStorage(s3.config);
    const storage = new EncryptingStorage(bucket, new FileKeyRing(K2, [K1]));
    const name = newStorageKey();
    await storage.put(name, PDF, 'application/pdf');
    expect(await storage.get(name)).toEqual(PDF);

    const client = new S3Client({ region: 'us-east-1', endpoint: s3.config.endpoint!, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const object = await client.send(new GetObjectCommand({ Bucket: s3.config.bucket, Key: `files/${name}` }));
    const raw = Buffer.from(await object.Body!.transformToByteArray());
    client.destroy();
    expect(object.ContentType).toBe('application/octet-stream');
    expect(keyIdOf(raw)).toBe('k2026');
    expect(raw.includes(Buffer.from('Ion Popescu'))).toBe(false);
    expect(await bucket.head(name, 10)).toEqual(raw.subarray(0, 10));
    expect(await bucket.head(newStorageKey(), 10)).toBeNull();

    // A file of before (plain) and one under the old key: rewritten under k2026; then nothing to do.
    const plain = newStorageKey();
    const old = newStorageKey();
    await bucket.put(plain, PDF, 'application/pdf');
    await new EncryptingStorage(bucket, new FileKeyRing(K1)).put(old, PDF, 'application/pdf');
    expect(await storage.reencrypt(plain)).toBe('encrypted');
    expect(await storage.reencrypt(old)).toBe('rewrapped');
    for (const k of [name, plain, old]) {
      expect(await storage.reencrypt(k)).toBe('current');
      expect(keyIdOf((await bucket.get(k))!)).toBe('k2026');
      expect(await storage.get(k)).toEqual(PDF);
    }
    expect(await storage.reencrypt(newStorageKey())).toBe('missing');
    bucket.close();
  });
});

/** A log stream kept as text. */
function logSink() {
  const sink = { text: '', stream: null as unknown as Writable };
  sink.stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      sink.text += chunk.toString();
      done();
    },
  });
  return sink;
}

describe('the app: an identity photo uploaded through the real route, DATA_DIR on disk', () => {
  let dataDir: string;
  let app: FastifyInstance;
  const log = logSink();
  beforeAll(async () => {
    dataDir = tempDir();
    app = await buildApp(testConfig({ dataDir, s3: null }), { database: await testDatabase(), checkAnswers: true, logStream: log.stream });
    await app.ready();
  });
  afterAll(() => app?.close());

  it('makes DATA_DIR/files-key once (mode 0600) when FILES_ENCRYPTION_KEY is unset', () => {
    const file = path.join(dataDir, FILES_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseMasterKey(fs.readFileSync(file, 'utf8'), file).id).toMatch(/^dev-[0-9a-f]{8}$/);
    expect((app.storage as EncryptingStorage).keys.current.id).toBe(parseMasterKey(fs.readFileSync(file, 'utf8'), file).id);
  });

  it("the photo's bytes, as its owner downloads them, appear in no file under DATA_DIR", async () => {
    const owner = await registerUser(app);
    const session = await createSession(app, owner.token);
    const res = await upload(app, owner.token, session.session_id, 'document-front', { filename: 'buletin.png', contentType: 'image/png', data: await noisePhoto(160) });
    expect(res.statusCode).toBe(200);
    const download = await app.inject({ method: 'GET', url: res.json().payload.preview_url, headers: auth(owner.token) });
    expect(download.statusCode).toBe(200);
    const stored = download.rawPayload; // the stored, metadata-stripped image
    expect(stored.length).toBeGreaterThan(50_000);

    // Eight 64-byte runs spread over the image, the first one from its first bytes (the PNG signature and header).
    const runs = Array.from({ length: 8 }, (_, i) => stored.subarray(Math.floor((i * (stored.length - 64)) / 7), Math.floor((i * (stored.length - 64)) / 7) + 64));
    const everything = filesUnder(dataDir);
    expect(everything.some((f) => f.includes(`${path.sep}files${path.sep}`))).toBe(true);
    for (const file of everything) {
      const bytes = fs.readFileSync(file);
      for (const run of runs) expect(bytes.includes(run), `${file} holds the photo`).toBe(false);
    }
    // The search itself finds a run where there is one.
    expect(Buffer.concat([randomBytes(100), stored]).includes(runs[3])).toBe(true);
  });

  it('a file under an unknown key id, or altered, answers 503 with the Romanian read message; the cause goes to the log only', async () => {
    const owner = await registerUser(app);
    const session = await createSession(app, owner.token);
    const res = await upload(app, owner.token, session.session_id, 'document-front', { filename: 'fata.png', data: await noisePhoto(64) });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().payload.preview_url as string;
    const [row] = await app.db.select().from(files).where(eq(files.id, Number(url.split('/').pop())));
    const storage = app.storage as EncryptingStorage;
    const original = (await storage.inner.get(row.storageKey))!;

    await new EncryptingStorage(storage.inner, new FileKeyRing(key('cheie-pierduta'))).put(row.storageKey, Buffer.from('x'), 'image/png');
    const lost = await app.inject({ method: 'GET', url, headers: auth(owner.token) });
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toEqual({ message: STORAGE_READ_FAILED, payload: null });
    expect(lost.body).not.toContain('cheie-pierduta');
    expect(log.text).toContain('key id \\"cheie-pierduta\\" is not configured');

    const altered = Buffer.from(original);
    altered[altered.length - 1] ^= 0x01;
    await storage.inner.put(row.storageKey, altered, 'application/octet-stream');
    const tampered = await app.inject({ method: 'GET', url, headers: auth(owner.token) });
    expect(tampered.statusCode).toBe(503);
    expect(tampered.json()).toEqual({ message: STORAGE_READ_FAILED, payload: null });
    expect(log.text).toContain('authentication failed');
  });
});

describe('the re-encryption of what is stored (server/storage/encrypt-existing.ts)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp(testConfig(), { database: await testDatabase() });
    await app.ready();
  });
  afterAll(() => app?.close());

  /** A files row of a new user for `storageKey`. */
  async function fileRow(userId: number, storageKey: string) {
    const [row] = await app.db.insert(files).values({ userId, storageKey, originalName: 'contract.pdf', contentType: 'application/pdf', size: PDF.length }).returning();
    return row;
  }

  it('encrypts plain files, rewraps old-key files, leaves current ones and unreadable ones, in batches; a second run does nothing', async () => {
    const inner = new MemoryFileStorage();
    const storage = new EncryptingStorage(inner, new FileKeyRing(K2, [K1]));
    const { user } = await registerUser(app);
    const plain = newStorageKey();
    const old = newStorageKey();
    const current = newStorageKey();
    const unknown = newStorageKey();
    await inner.put(plain, PDF, 'application/pdf');
    await new EncryptingStorage(inner, new FileKeyRing(K1)).put(old, PDF, 'application/pdf');
    await storage.put(current, PDF, 'application/pdf');
    await new EncryptingStorage(inner, new FileKeyRing(key('pierduta'))).put(unknown, PDF, 'application/pdf');
    // The last two: bytes never stored, and a key no storage takes (rows other tests make by hand): "missing".
    for (const k of [plain, old, current, unknown, newStorageKey(), `not-a-storage-key-${newStorageKey()}`]) await fileRow(user.id, k);
    const currentBefore = await inner.get(current);
    const unknownBefore = await inner.get(unknown);
    const warnings: object[] = [];
    const log = { info: () => undefined, warn: (o: object) => warnings.push(o) };

    // Rows of the other tests of this worker share the table; their bytes are not in this storage ("missing").
    const first = await encryptExistingFiles({ database: app.database, storage, log, batchSize: 2, concurrency: 2 });
    expect(first).toMatchObject({ encrypted: 1, rewrapped: 1, failed: 1, skipped: false, stopped: false, key_id: 'k2026' });
    expect(first.current).toBeGreaterThanOrEqual(1);
    expect(first.missing).toBeGreaterThanOrEqual(2);
    expect(first.checked).toBe(first.encrypted + first.rewrapped + first.current + first.missing + first.failed);
    expect(warnings).toEqual([expect.objectContaining({ reason: 'unknown-key' })]);
    for (const k of [plain, old, current]) {
      expect(keyIdOf((await inner.get(k))!)).toBe('k2026');
      expect(await storage.get(k)).toEqual(PDF);
    }
    expect(await inner.get(current)).toEqual(currentBefore);
    expect(await inner.get(unknown)).toEqual(unknownBefore);

    const second = await encryptExistingFiles({ database: app.database, storage, batchSize: 3 });
    expect(second).toMatchObject({ encrypted: 0, rewrapped: 0, failed: 1 });
    expect(second.checked).toBe(first.checked);
  });

  it('`npm run ops -- files:reencrypt` asks the server (POST /api/ops/files/reencrypt): the operator token only', async () => {
    const token = 'ops-test-token-0123456789abcdef';
    const opsApp = await buildApp(testConfig({ opsToken: token }), { database: await testDatabase() });
    try {
      const { user } = await registerUser(opsApp);
      const inner = (opsApp.storage as EncryptingStorage).inner;
      const plain = newStorageKey();
      await inner.put(plain, PDF, 'application/pdf');
      await opsApp.db.insert(files).values({ userId: user.id, storageKey: plain, originalName: 'contract.pdf', contentType: 'application/pdf', size: PDF.length });
      for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-1234' }]) {
        const refused = await opsApp.inject({ method: 'POST', url: '/api/ops/files/reencrypt', headers });
        expect(refused.statusCode).toBe(401);
        expect(await inner.get(plain)).toEqual(PDF);
      }
      const res = await opsApp.inject({ method: 'POST', url: '/api/ops/files/reencrypt', headers: { authorization: `Bearer ${token}`, 'x-ops-actor': 'Ana Operator' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().payload).toMatchObject({ skipped: false, stopped: false, failed: 0 });
      expect(res.json().payload.encrypted).toBeGreaterThanOrEqual(1);
      expect(await inner.get(plain)).not.toEqual(PDF);
      expect(await opsApp.storage.get(plain)).toEqual(PDF);
    } finally {
      await opsApp.close();
    }
  });

  it('one run at a time: a second one started meanwhile leaves the work to the first', async () => {
    const storage = new EncryptingStorage(new MemoryFileStorage(), new FileKeyRing(K2));
    const [a, b] = await Promise.all([
      encryptExistingFiles({ database: app.database, storage }),
      encryptExistingFiles({ database: app.database, storage }),
    ]);
    expect([a.skipped, b.skipped].sort()).toEqual([false, true]);
    // Waiting (the ops command): it runs after the other.
    const [c, d] = await Promise.all([
      encryptExistingFiles({ database: app.database, storage }),
      encryptExistingFiles({ database: app.database, storage, wait: true }),
    ]);
    expect([c.skipped, d.skipped]).toEqual([false, false]);
  });

  it.skipIf(!databaseUrl())('PostgreSQL: while another instance holds the advisory lock, a start-up run leaves the work to it', async () => {
    const other = new pg.Client({ connectionString: databaseUrl()! });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [FILES_ENCRYPTION_LOCK_KEY]);
      const storage = new EncryptingStorage(new MemoryFileStorage(), new FileKeyRing(K2));
      expect(await encryptExistingFiles({ database: app.database, storage })).toMatchObject({ skipped: true, checked: 0 });
      // The ops command waits for it.
      const waiting = encryptExistingFiles({ database: app.database, storage, wait: true });
      await new Promise((r) => setTimeout(r, 200));
      await other.query('select pg_advisory_unlock($1)', [FILES_ENCRYPTION_LOCK_KEY]);
      expect(await waiting).toMatchObject({ skipped: false });
    } finally {
      await other.end();
    }
  });

  it('a file deleted while it was being rewritten does not come back', async () => {
    const { user } = await registerUser(app);
    const name = newStorageKey();
    const row = await fileRow(user.id, name);
    const memory = new MemoryFileStorage();
    await memory.put(name, PDF, 'application/pdf');
    // deleteFiles between the job's read and its write: the row goes (its bytes are deleted after, by the job).
    const racing: FileStorage = {
      get: (k) => memory.get(k),
      head: (k, n) => memory.head(k, n),
      delete: (k) => memory.delete(k),
      put: async (k, data, type) => {
        if (k === name) {
          await app.db.delete(files).where(eq(files.id, row.id));
          await memory.delete(k);
        }
        await memory.put(k, data, type);
      },
    };
    const summary = await encryptExistingFiles({ database: app.database, storage: new EncryptingStorage(racing, new FileKeyRing(K2)) });
    expect(summary.encrypted).toBe(1);
    expect(await memory.get(name)).toBeNull();
  });

  it('the storage failing ends the run with its error (the next run resumes)', async () => {
    const { user } = await registerUser(app);
    const name = newStorageKey();
    await fileRow(user.id, name);
    const down: FileStorage = {
      get: async () => {
        throw new StorageUnavailableError(STORAGE_READ_FAILED, new Error('connect ECONNREFUSED'));
      },
      put: async () => undefined,
      delete: async () => undefined,
    };
    await expect(encryptExistingFiles({ database: app.database, storage: new EncryptingStorage(down, new FileKeyRing(K2)) })).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});

describe('at start-up, and key rotation (DATA_DIR on disk)', () => {
  it('a restart encrypts a file left in plain text; a new FILES_ENCRYPTION_KEY rewraps everything under it and old files stay readable', async () => {
    const dataDir = tempDir();
    const database = await testDatabase();
    const first = await buildApp(testConfig({ dataDir, s3: null }), { database });
    await first.ready();
    const owner = await registerUser(first);
    const session = await createSession(first, owner.token);
    const res = await upload(first, owner.token, session.session_id, 'document-front', { filename: 'fata.png', data: await noisePhoto(32) });
    const url = res.json().payload.preview_url as string;
    const stored = (await first.inject({ method: 'GET', url, headers: auth(owner.token) })).rawPayload;
    const [row] = await first.db.select().from(files).where(eq(files.id, Number(url.split('/').pop())));
    const devKey = (first.storage as EncryptingStorage).keys.current.id;
    await first.close();

    // As if stored before encryption existed.
    const local = new LocalFileStorage(path.join(dataDir, 'files'));
    await local.put(row.storageKey, stored, 'image/png');
    const rawKeyId = async () => keyIdOf((await local.get(row.storageKey))!);
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
    };

    const second = await buildApp(testConfig({ dataDir, s3: null }), { database });
    await second.ready();
    await until(async () => (await rawKeyId()) === devKey);
    expect(await rawKeyId()).toBe(devKey);
    expect((await second.inject({ method: 'GET', url, headers: auth(owner.token) })).rawPayload).toEqual(stored);
    await second.close();

    // Rotation: a new key set; the development key of DATA_DIR/files-key is still read, and rewrapped.
    const rotated = newMasterKeyText('k2027');
    const third = await buildApp(testConfig({ dataDir, s3: null, filesEncryptionKey: rotated }), { database });
    await third.ready();
    await until(async () => (await rawKeyId()) === 'k2027');
    expect(await rawKeyId()).toBe('k2027');
    expect((await third.inject({ method: 'GET', url, headers: auth(owner.token) })).rawPayload).toEqual(stored);
    await third.close();

    // The next rotation: k2027 moves to FILES_ENCRYPTION_OLD_KEYS.
    const fourth = await buildApp(testConfig({ dataDir, s3: null, filesEncryptionKey: newMasterKeyText('k2028'), filesEncryptionOldKeys: [rotated] }), { database });
    await fourth.ready();
    expect((await fourth.inject({ method: 'GET', url, headers: auth(owner.token) })).rawPayload).toEqual(stored);
    await until(async () => (await rawKeyId()) === 'k2028');
    expect(await rawKeyId()).toBe('k2028');
    await fourth.close();
  }, 60_000);
});

describe('configuration', () => {
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(env);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it('production refuses to start without FILES_ENCRYPTION_KEY', () => {
    expect(refusal({ ...PRODUCTION_ENV, FILES_ENCRYPTION_KEY: '' })).toMatch(/^ {2}- FILES_ENCRYPTION_KEY: lipsește, obligatorie cu NODE_ENV=production/m);
    expect(refusal({ ...PRODUCTION_ENV, FILES_ENCRYPTION_KEY: undefined })).toMatch(/FILES_ENCRYPTION_KEY: lipsește/);
    // And nothing is generated into DATA_DIR in production, even if the check were bypassed.
    expect(() => fileKeyRing({ production: true, dataDir: tempDir(), filesEncryptionKey: null, filesEncryptionOldKeys: [] })).toThrow('FILES_ENCRYPTION_KEY is required in production');
  });

  it('reads the key and the old keys; refuses a malformed one without repeating it', () => {
    const current = newMasterKeyText('k2');
    const old = [newMasterKeyText('k1'), newMasterKeyText('k0')];
    const config = loadConfig({ FILES_ENCRYPTION_KEY: current, FILES_ENCRYPTION_OLD_KEYS: old.join(', ') });
    expect(config.filesEncryptionKey).toBe(current);
    expect(config.filesEncryptionOldKeys).toEqual(old);
    expect(fileKeyRing({ ...config, dataDir: ':memory:' }).ids).toEqual(['k2', 'k1', 'k0']);
    expect(loadConfig({}).filesEncryptionKey).toBeNull();

    const secret = randomBytes(16).toString('base64');
    const message = refusal({ FILES_ENCRYPTION_KEY: `k1:${secret}`, FILES_ENCRYPTION_OLD_KEYS: `${current},nope` }) ?? '';
    expect(message).toMatch(/FILES_ENCRYPTION_KEY: nu are forma/);
    expect(message).toMatch(/FILES_ENCRYPTION_OLD_KEYS: nu are forma/);
    expect(message).not.toContain(secret);
    expect(message).not.toContain(current.split(':')[1]);
  });

  it('DATA_DIR=:memory: uses one random key for the whole process', () => {
    const a = fileKeyRing({ production: false, dataDir: ':memory:', filesEncryptionKey: null, filesEncryptionOldKeys: [] });
    const b = fileKeyRing({ production: false, dataDir: ':memory:', filesEncryptionKey: null, filesEncryptionOldKeys: [] });
    expect(a.current.id).toMatch(/^memory-/);
    expect(b.current).toBe(a.current);
  });
});
