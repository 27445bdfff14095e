import fp from 'fastify-plugin';
import { createFileStorage, type FileStorage } from '../storage/file-storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files' bytes (DATA_DIR/files, or memory for tests). */
    storage: FileStorage;
  }
}

/** Where uploaded files' bytes live, as the configuration names it. */
export default fp<{ storage?: FileStorage }>(
  async (app, options) => {
    app.decorate('storage', options.storage ?? createFileStorage(app.config));
  },
  { name: 'storage', dependencies: ['config'], fastify: '5.x' },
);
