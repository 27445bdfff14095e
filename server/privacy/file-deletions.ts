import { asc, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { fileDeletions } from '../db/schema';
import type { FileStorage } from '../storage/storage';

/** After this many failed attempts a storage key is left for the operator (it stays in `file_deletions`, logged). */
export const FILE_DELETION_MAX_ATTEMPTS = 20;

/**
 * Queues stored files for deletion, in the transaction that deletes their rows (issue 32): either the
 * rows are gone and their bytes are queued, or neither. `deleteQueuedFiles` then removes the bytes.
 */
export async function queueFileDeletions(db: Pick<Db, 'insert'>, storageKeys: readonly string[]): Promise<void> {
  const keys = [...new Set(storageKeys.filter(Boolean))];
  if (!keys.length) return;
  await db
    .insert(fileDeletions)
    .values(keys.map((storageKey) => ({ storageKey })))
    .onConflictDoNothing();
}

/**
 * Deletes queued files from the storage (local folder or S3), all of them or only `keys`: each key
 * leaves the queue once its bytes are gone; a storage error counts an attempt and leaves it for the
 * next run (the retention job calls this without `keys`). Returns how many files were deleted.
 */
export async function deleteQueuedFiles(db: Db, storage: FileStorage, log: FastifyBaseLogger, keys?: readonly string[]): Promise<number> {
  const rows = keys
    ? keys.length
      ? await db.select().from(fileDeletions).where(inArray(fileDeletions.storageKey, [...keys]))
      : []
    : await db.select().from(fileDeletions).where(lt(fileDeletions.attempts, FILE_DELETION_MAX_ATTEMPTS)).orderBy(asc(fileDeletions.createdAt)).limit(10_000);
  let deleted = 0;
  for (const row of rows) {
    try {
      await storage.delete(row.storageKey);
      await db.delete(fileDeletions).where(inArray(fileDeletions.storageKey, [row.storageKey]));
      deleted += 1;
    } catch (error) {
      await db
        .update(fileDeletions)
        .set({ attempts: sql`${fileDeletions.attempts} + 1` })
        .where(inArray(fileDeletions.storageKey, [row.storageKey]));
      // The key is a random name: nothing personal in the log.
      log.warn({ err: error, storageKey: row.storageKey }, 'a stored file could not be deleted; the retention job tries again');
    }
  }
  return deleted;
}
