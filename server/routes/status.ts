import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { ZipFile } from 'yazl';
import { findRequest } from '../registration/store';
import { HttpError } from '../lib/http-errors';
import type { UserRow } from '../lib/tokens';
import { tradeRegisterFiles, uniqueEntryNames } from '../registration/timeline';
import { otherReplies } from '../lib/api-schemas';

export const STATUS_MESSAGES = {
  noDocuments: 'Documentele de la Registrul Comerțului nu sunt încă disponibile.',
} as const;

/**
 * `GET /api/registration/download/tradeRegisterDocuments` (spec 001 §7, §2 item 11): the trade
 * register's documents of the signed-in applicant's new-PFA request as one zip, streamed (each
 * file is read from storage only when the zip reaches it), saved by the browser as documente.zip.
 * Repeated names are numbered inside the zip. None yet (or no new-PFA request): 404.
 */
export default (async (app) => {
  app.get(
    '/registration/download/tradeRegisterDocuments',
    {
      onRequest: app.authenticate,
      schema: { querystring: { type: 'object', properties: { timestamp: { type: 'integer' } } }, response: otherReplies('documente.zip: the trade register documents', 'application/zip') },
    },
    async (request, reply) => {
      const user = request.user as UserRow;
      const row = await findRequest(app.db, user.id, 2);
      const documents = row ? await tradeRegisterFiles(app.db, row) : [];
      if (!documents.length) throw new HttpError(404, STATUS_MESSAGES.noDocuments);

      const zip = new ZipFile();
      const names = uniqueEntryNames(documents.map((d) => d.name));
      documents.forEach((document, i) => {
        zip.addReadStreamLazy(names[i], { mtime: document.createdAt, size: document.size }, (callback) => {
          app.storage.get(document.storageKey).then(
            (data) => {
              if (!data) callback(new Error(`file ${document.id}: its bytes are missing from storage`), null as never);
              else callback(null, Readable.from([data]));
            },
            (error: unknown) => callback(error, null as never),
          );
        });
      });
      zip.end();
      const output = zip.outputStream as Readable;
      // A file that cannot be read mid-way: the response is already under way, so it is cut off.
      zip.on('error', (error: Error) => {
        request.log.error({ err: error }, 'trade register zip failed');
        output.destroy(error);
      });
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', 'attachment; filename="documente.zip"')
        .header('Cache-Control', 'private, no-store')
        .send(output);
    },
  );
}) satisfies FastifyPluginAsync;
