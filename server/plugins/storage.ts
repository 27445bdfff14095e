import fp from 'fastify-plugin';
import { createFileStorage, type FileStorage } from '../storage/file-storage';
import { EncryptingStorage, fileKeyRing } from '../storage/encryption';
import { encryptExistingFiles } from '../storage/encrypt-existing';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Uploaded files' bytes (an S3 bucket with S3_BUCKET, else DATA_DIR/files, or memory for tests),
     * always encrypted (`EncryptingStorage`, server/storage/encryption.ts).
     */
    storage: FileStorage;
  }
}

/**
 * Where uploaded files' bytes live, as the configuration names it, encrypted under the key ring of
 * FILES_ENCRYPTION_KEY / FILES_ENCRYPTION_OLD_KEYS (a storage given by tests is wrapped too, unless it
 * already encrypts, and is closed by them). Once the app is ready, the re-encryption job
 * (server/storage/encrypt-existing.ts) rewrites in the background what is stored in plain text or under
 * an old key; closing the app stops it between batches. Not with `DATA_DIR=:memory:` (tests: their keys
 * live only as long as the process; the tests call the job themselves).
 */
export default fp<{ storage?: FileStorage }>(
  async (app, options) => {
    const inner = options.storage ?? createFileStorage(app.config);
    const storage = inner instanceof EncryptingStorage ? inner : new EncryptingStorage(inner, fileKeyRing(app.config));
    app.decorate('storage', storage);
    if (!options.storage && storage.close) app.addHook('onClose', async () => storage.close?.());

    if (app.config.dataDir !== ':memory:') {
      const stop = new AbortController();
      let job: Promise<unknown> | null = null;
      app.addHook('onReady', async () => {
        job = encryptExistingFiles({ database: app.database, storage, log: app.log, signal: stop.signal }).catch((error: unknown) =>
          app.log.warn({ err: error }, 'files encryption: the re-encryption of stored files stopped; it resumes at the next start'),
        );
      });
      app.addHook('preClose', async () => {
        stop.abort();
        await job;
      });
    }
  },
  { name: 'storage', dependencies: ['config', 'database'], fastify: '5.x' },
);
