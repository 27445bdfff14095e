import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { files } from '../../server/db/schema';
import { EncryptingStorage, FILES_KEY_FILE, FileKeyRing, keyIdOf, newMasterKeyText, parseMasterKey } from '../../server/storage/encryption';
import { FILES_ENCRYPTION_LOCK_KEY, encryptExistingFiles } from '../../server/storage/encrypt-existing';
import { LocalFileStorage, MemoryFileStorage, STORAGE_READ_FAILED, StorageUnavailableError, newStorageKey, type FileStorage } from '../../server/storage/file-storage';
import { auth, databaseUrl, registerUser, testConfig, testDatabase } from './helpers';
import { createSession, upload } from './identity-helpers';
import { K1, K2, PDF, key, noisePhoto, tempDirs } from './file-encryption-helpers';

/** The app's encrypted files: an upload through the real route, the re-encryption of what is stored, start-up and key rotation. */
const tempDir = tempDirs();

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

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
