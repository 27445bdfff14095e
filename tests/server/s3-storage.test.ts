import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { buildApp } from '../../server/app';
import { files } from '../../server/db/schema';
import { S3FileStorage } from '../../server/storage/s3-storage';
import { STORAGE_WRITE_FAILED, StorageUnavailableError, createFileStorage, newStorageKey } from '../../server/storage/file-storage';
import { auth, registerUser, testConfig, testDatabase } from './helpers';
import { JPEG, PNG, createSession, upload } from './identity-helpers';
import { startS3 } from './s3-test-server';

let s3: Awaited<ReturnType<typeof startS3>>;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.close());

describe('S3FileStorage against s3rver on 127.0.0.1', () => {
  it('is the storage chosen when S3_BUCKET is set', () => {
    expect(createFileStorage({ dataDir: ':memory:', s3: s3.config })).toBeInstanceOf(S3FileStorage);
  });

  it('puts, gets and deletes bytes under files/<key> in the bucket; a missing key reads as null', async () => {
    const storage = new S3FileStorage(s3.config);
    const key = newStorageKey();
    const data = Buffer.from('%PDF-1.4 conținut de test\n');
    await storage.put(key, data, 'application/pdf');
    expect(await storage.get(key)).toEqual(data);

    const client = new S3Client({ region: 'us-east-1', endpoint: s3.config.endpoint!, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: 'files/' }));
    expect(listed.Contents?.map((o) => o.Key)).toContain(`files/${key}`);
    client.destroy();

    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    // Deleting what is not there is not an error.
    await storage.delete(key);
    expect(await storage.get(newStorageKey())).toBeNull();
    storage.close();
  });

  it('a put into a bucket that does not exist fails with the Romanian storage error', async () => {
    const storage = new S3FileStorage({ ...s3.config, bucket: 'nu-exista' });
    const error = await storage.put(newStorageKey(), Buffer.from('x'), 'text/plain').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error).toMatchObject({ statusCode: 503, message: STORAGE_WRITE_FAILED });
    storage.close();
  });
});

describe('the API with S3 storage', () => {
  let app: FastifyInstance;
  let server: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    server = await startS3('ghiseu-api');
    app = await buildApp(testConfig({ s3: server.config }), { database: await testDatabase(), checkAnswers: true });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await server.close();
  });

  const get = (url: string, token: string) => app.inject({ method: 'GET', url, headers: auth(token) });

  it('an uploaded photo is stored in the bucket and served to its owner only', async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const session = await createSession(app, owner.token);
    const res = await upload(app, owner.token, session.session_id, 'document-front', { filename: 'buletin.png', data: PNG });
    expect(res.statusCode).toBe(200);
    const url = res.json().payload.preview_url as string;
    const mine = await get(url, owner.token);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const foreign = await get(url, other.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Fișierul nu a fost găsit.', payload: null });
  });

  it('an object gone from the bucket is a 404 to its owner, not a 500', async () => {
    const owner = await registerUser(app);
    const session = await createSession(app, owner.token);
    const url = (await upload(app, owner.token, session.session_id, 'document-front', { filename: 'fata.jpg', data: JPEG })).json().payload.preview_url as string;
    const [row] = await app.db.select().from(files).where(eq(files.id, Number(url.split('/').pop())));
    const client = new S3Client({ region: 'us-east-1', endpoint: server.config.endpoint!, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await client.send(new DeleteObjectCommand({ Bucket: server.config.bucket, Key: `files/${row.storageKey}` }));
    client.destroy();
    const res = await get(url, owner.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Fișierul nu a fost găsit.', payload: null });
  });

  it('S3 down: the upload is refused with a Romanian message and nothing is recorded', async () => {
    const owner = await registerUser(app);
    const session = await createSession(app, owner.token);
    await server.stop();
    const res = await upload(app, owner.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: STORAGE_WRITE_FAILED, payload: null });
    expect(await app.db.select().from(files).where(eq(files.userId, owner.user.id))).toHaveLength(0);
    const last = await app.inject({ method: 'GET', url: '/api/veriff/get-last-session', headers: auth(owner.token) });
    expect(last.json().payload.uploads).toMatchObject({ 'document-front': null });
  });
});
