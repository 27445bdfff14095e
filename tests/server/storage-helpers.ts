import type { FastifyInstance } from 'fastify';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { EncryptingStorage, MemoryFileStorage } from '../../server/storage/file-storage';

/** How many files the app's storage holds: memory (the default of the tests) or the S3 bucket (`TEST_STORAGE=s3`). */
export async function storedFileCount(app: FastifyInstance): Promise<number> {
  // app.storage encrypts (server/storage/encryption.ts): count what it stores into.
  const storage = app.storage instanceof EncryptingStorage ? app.storage.inner : app.storage;
  if (storage instanceof MemoryFileStorage) return storage.size;
  const s3 = app.config.s3;
  if (!s3) throw new Error('storedFileCount: neither memory nor S3 storage');
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint ?? undefined,
    forcePathStyle: s3.forcePathStyle,
    credentials: s3.accessKeyId && s3.secretAccessKey ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } : undefined,
  });
  try {
    let count = 0;
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'files/', ContinuationToken: token }));
      count += page.KeyCount ?? 0;
      token = page.NextContinuationToken;
    } while (token);
    return count;
  } finally {
    client.destroy();
  }
}
