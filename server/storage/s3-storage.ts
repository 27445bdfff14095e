import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { STORAGE_READ_FAILED, STORAGE_WRITE_FAILED, StorageUnavailableError, checkKey, type FileStorage } from './storage';

/** Where a key lives in the bucket. */
const objectKey = (key: string) => `files/${key}`;

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Files in an S3 bucket (`S3_BUCKET`; `S3_ENDPOINT` + `S3_FORCE_PATH_STYLE` for MinIO and other
 * S3-compatible servers). The bucket stays private: the app reads an object and sends it to its
 * owner after the owner check (GET /api/files/:id), so no bucket address ever reaches a browser.
 * The SDK is loaded at the first use (the default local storage never loads it).
 */
export class S3FileStorage implements FileStorage {
  private readonly client: Promise<S3Client>;
  private readonly sdk = import('@aws-sdk/client-s3');

  constructor(private readonly config: S3Config) {
    this.client = this.sdk.then(
      ({ S3Client }) =>
        new S3Client({
          region: config.region,
          endpoint: config.endpoint ?? undefined,
          forcePathStyle: config.forcePathStyle,
          credentials:
            config.accessKeyId && config.secretAccessKey
              ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
              : undefined,
          // A request that hangs fails (and the upload is refused) instead of holding the applicant.
          requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
          maxAttempts: 2,
        }),
    );
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    checkKey(key);
    const { PutObjectCommand } = await this.sdk;
    try {
      await (await this.client).send(
        new PutObjectCommand({ Bucket: this.config.bucket, Key: objectKey(key), Body: data, ContentType: contentType, ContentLength: data.length }),
      );
    } catch (error) {
      throw new StorageUnavailableError(STORAGE_WRITE_FAILED, error);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    checkKey(key);
    const { GetObjectCommand } = await this.sdk;
    try {
      const object = await (await this.client).send(new GetObjectCommand({ Bucket: this.config.bucket, Key: objectKey(key) }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (isMissing(error)) return null;
      throw new StorageUnavailableError(STORAGE_READ_FAILED, error);
    }
  }

  async head(key: string, length: number): Promise<Buffer | null> {
    checkKey(key);
    const { GetObjectCommand } = await this.sdk;
    try {
      const object = await (await this.client).send(new GetObjectCommand({ Bucket: this.config.bucket, Key: objectKey(key), Range: `bytes=0-${length - 1}` }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()).subarray(0, length) : Buffer.alloc(0);
    } catch (error) {
      if (isMissing(error)) return null;
      // An empty object has no byte 0: its first bytes are none.
      if ((error as { name?: string }).name === 'InvalidRange') return Buffer.alloc(0);
      throw new StorageUnavailableError(STORAGE_READ_FAILED, error);
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    const { DeleteObjectCommand } = await this.sdk;
    try {
      await (await this.client).send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: objectKey(key) }));
    } catch (error) {
      if (!isMissing(error)) throw new StorageUnavailableError(STORAGE_WRITE_FAILED, error);
    }
  }

  close(): void {
    void this.client.then((c) => c.destroy());
  }
}
