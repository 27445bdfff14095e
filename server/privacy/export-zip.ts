import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ZipFile } from 'yazl';
import type { users } from '../db/schema';
import type { FileStorage } from '../storage/storage';
import { collectExport, type ExportFile } from './export-data';

type UserRow = typeof users.$inferSelect;

/** The zip's machine-readable part. */
export const EXPORT_JSON_NAME = 'date.json';

/** `date-<product slug>-<YYYY-MM-DD>.zip`: nothing personal in the name. */
export function exportFileName(productSlug: string, now: Date): string {
  const slug = productSlug.replace(/[^a-z0-9_-]/gi, '') || 'export';
  return `date-${slug}-${now.toISOString().slice(0, 10)}.zip`;
}

/**
 * Whether the bytes of a file are in the storage, reading only a byte where the storage underneath
 * can (`head`; `app.storage` is the encrypting wrapper, whose `inner` is the folder or bucket), else
 * the whole file (memory storage without `head`), dropped at once.
 */
async function isStored(storage: FileStorage, key: string): Promise<boolean> {
  const inner = (storage as { inner?: FileStorage }).inner ?? storage;
  if (inner.head) return (await inner.head(key, 1)) !== null;
  return (await storage.get(key)) !== null;
}

/**
 * The user's export as a zip stream: `date.json` first, then every stored file under `fisiere/`,
 * each read from the storage (decrypted) only when the zip reaches it, one at a time. A file whose
 * bytes are missing is marked `missing: true` in date.json and left out of the zip. A storage
 * failure while the answer is already under way cuts the stream (the client sees a broken
 * download, never a zip that looks complete); the log gets the file id only, nothing personal.
 */
export async function exportZip(app: FastifyInstance, user: UserRow, log: FastifyBaseLogger, now = new Date()): Promise<Readable> {
  const data = await collectExport(app.db, user, { name: app.config.productName, slug: app.config.productSlug }, now);

  const present: ExportFile[] = [];
  const listed = data.json.files as Record<string, unknown>[];
  for (const [i, file] of data.files.entries()) {
    if (await isStored(app.storage, file.row.storageKey)) present.push(file);
    else {
      listed[i].missing = true;
      log.warn({ fileId: file.row.id }, 'user export: a file is missing from the storage');
    }
  }

  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(data.json, null, 2) + '\n', 'utf8'), EXPORT_JSON_NAME, { mtime: now });
  for (const file of present) {
    zip.addReadStreamLazy(file.entryName, { mtime: file.row.createdAt }, (callback) => {
      app.storage.get(file.row.storageKey).then(
        (bytes) => {
          if (!bytes) log.warn({ fileId: file.row.id }, 'user export: a file went missing while exporting');
          callback(null, Readable.from(bytes ? [bytes] : []));
        },
        (error: unknown) => callback(error, null as never),
      );
    });
  }
  zip.end();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => {
    log.error({ err: error }, 'user export: zip failed');
    output.destroy(error);
  });
  return output;
}
