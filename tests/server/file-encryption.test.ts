import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ConfigError, loadConfig } from '../../server/config';
import {
  ENVELOPE_MAGIC,
  EncryptingStorage,
  FileDecryptionError,
  FileKeyRing,
  decryptBlob,
  encryptBlob,
  fileKeyRing,
  keyIdOf,
  newMasterKeyText,
  parseMasterKey,
} from '../../server/storage/encryption';
import { LocalFileStorage, STORAGE_READ_FAILED, StorageUnavailableError, newStorageKey } from '../../server/storage/file-storage';
import { S3FileStorage } from '../../server/storage/s3-storage';
import { K1, K2, PDF, key, tempDirs } from './file-encryption-helpers';
import { PRODUCTION_ENV } from './production-env';
import { startS3 } from './s3-test-server';

/** The files' encryption itself: the envelope, the encrypting storage (local, S3), the keys' settings (the app's use: file-encryption-app.test.ts). */
const tempDir = tempDirs();

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
