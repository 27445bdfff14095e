import type { FastifyPluginAsync } from 'fastify';
import { findUserFile } from '../files/files';
import { notFound } from '../lib/http-errors';
import { dbId } from '../lib/input-limits';
import { otherReplies } from '../lib/api-schemas';

export default (async (app) => {
  /**
   * A stored file, only for its owner (anyone else: 404, as if it did not exist). Never cached,
   * never sniffed: the stored type was decided from the bytes when the file was uploaded.
   */
  app.get<{ Params: { id: number } }>(
    '/files/:id',
    {
      onRequest: app.authenticate,
      schema: { params: { type: 'object', required: ['id'], properties: { id: dbId } }, response: otherReplies('The file, with its own content type', 'application/octet-stream') },
    },
    async (request, reply) => {
      const file = await findUserFile(app, request.user!.id, request.params.id);
      const data = file ? await app.storage.get(file.storageKey) : null;
      if (!file || !data) throw notFound('Fișierul nu a fost găsit.');
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', String(data.length))
        .header('Cache-Control', 'private, no-store')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', `inline; filename="file-${file.id}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`)
        .send(data);
    },
  );
}) satisfies FastifyPluginAsync;
