import fp from 'fastify-plugin';
import { createFileStorage, type FileStorage } from '../storage/file-storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files' bytes (an S3 bucket with S3_BUCKET, else DATA_DIR/files, or memory for tests). */
    storage: FileStorage;
  }
}

/** Where uploaded files' bytes live, as the configuration names it; a storage given by tests is closed by them. */
export default fp<{ storage?: FileStorage }>(
  async (app, options) => {
    const storage = options.storage ?? createFileStorage(app.config);
    app.decorate('storage', storage);
    if (!options.storage && storage.close) app.addHook('onClose', async () => storage.close?.());
  },
  { name: 'storage', dependencies: ['config'], fastify: '5.x' },
);
