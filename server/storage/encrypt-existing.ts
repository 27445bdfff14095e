import { asc, eq, gt, isNotNull } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { Database } from '../db';
import { files, retainedRecords } from '../db/schema';
import { EncryptingStorage, FileDecryptionError, type ReencryptOutcome } from './encryption';
import { STORAGE_KEY, type FileStorage } from './storage';

/**
 * The re-encryption job (docs/operations.md "Stored files", FILES_ENCRYPTION_KEY): every stored file is rewritten under the
 * current master key when it is still in plain text (stored before encryption) or under an old key
 * (FILES_ENCRYPTION_OLD_KEYS, after a rotation). It runs in the background at each start
 * (server/plugins/storage.ts) and on demand (`npm run ops -- files:reencrypt`).
 *
 * - every stored key: the `files` table is the only one holding storage keys (identity photos,
 *   documents, signatures, signed PDFs and the trade register's documents are all `files` rows);
 *   another table that kept keys would be walked here too;
 * - in batches of `batchSize` rows by id, a few files at a time; a file already under the current
 *   key costs one read of its first bytes;
 * - idempotent and resumable: a file is rewritten only when it needs it, so a run stopped half-way
 *   (shutdown, storage down) is simply run again;
 * - one instance at a time on PostgreSQL (a session advisory lock; at start an instance that finds
 *   it taken leaves the work to the holder); in one process, one run at a time;
 * - a file deleted while it was being rewritten is deleted again (the row is checked after the write).
 */

/** Serialises the job across instances sharing one PostgreSQL (next to the migrations' 727_001). */
export const FILES_ENCRYPTION_LOCK_KEY = 727_002;

export interface ReencryptSummary {
  /** Files looked at (rows of `files`). */
  checked: number;
  /** Were in plain text, now encrypted. */
  encrypted: number;
  /** Were under an old key, now under the current one. */
  rewrapped: number;
  /** Already under the current key. */
  current: number;
  /** A row whose bytes are not in the storage (nothing to do). */
  missing: number;
  /** Could not be opened: an unknown key id or an altered envelope (logged with the file id; left as they are). */
  failed: number;
  /** Another instance held the lock: nothing was done here. */
  skipped: boolean;
  /** Stopped before the end (the app closing). */
  stopped: boolean;
  /** The current key id everything was written under. */
  key_id: string;
  duration_ms: number;
}

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface ReencryptOptions {
  database: Pick<Database, 'db' | 'kind'>;
  storage: FileStorage;
  log?: Log;
  /** Rows read per batch (default 50). */
  batchSize?: number;
  /** Files rewritten at the same time (default 4). */
  concurrency?: number;
  /** Wait for another instance's run to end (the ops command) instead of leaving the work to it (start-up). */
  wait?: boolean;
  /** Checked between batches: the app closing stops the run (it resumes at the next start). */
  signal?: AbortSignal;
}

/** Runs in this process, per database (PGlite is one process; on PostgreSQL the advisory lock covers the others). */
const running = new WeakMap<object, Promise<unknown>>();

/** The re-encryption job: see the comment above. Throws when the storage fails (the next run resumes). */
export async function encryptExistingFiles(options: ReencryptOptions): Promise<ReencryptSummary> {
  const { storage, database } = options;
  if (!(storage instanceof EncryptingStorage)) throw new Error('encryptExistingFiles: the storage does not encrypt');
  const started = Date.now();
  const summary: ReencryptSummary = {
    checked: 0,
    encrypted: 0,
    rewrapped: 0,
    current: 0,
    missing: 0,
    failed: 0,
    skipped: false,
    stopped: false,
    key_id: storage.keys.current.id,
    duration_ms: 0,
  };

  // One run at a time in this process.
  const previous = running.get(database.db);
  if (previous) {
    if (!options.wait) return { ...summary, skipped: true };
    await previous.catch(() => undefined);
  }
  const run = (async () => {
    const release = await lock(database, options.wait ?? false);
    if (!release) {
      summary.skipped = true;
      return;
    }
    try {
      await walk(options, storage, summary);
    } finally {
      await release();
    }
  })();
  running.set(database.db, run);
  try {
    await run;
  } finally {
    if (running.get(database.db) === run) running.delete(database.db);
    summary.duration_ms = Date.now() - started;
  }
  if (!summary.skipped && (summary.encrypted || summary.rewrapped || summary.failed)) {
    options.log?.info({ filesEncryption: summary }, 'files encryption: stored files rewritten under the current key');
  }
  return summary;
}

/** The session advisory lock on PostgreSQL (a connection of its own, held for the whole run); null: another instance holds it. */
async function lock(database: Pick<Database, 'db' | 'kind'>, wait: boolean): Promise<(() => Promise<void>) | null> {
  if (database.kind !== 'postgres') return async () => undefined;
  const pool = (database.db as unknown as { $client: Pool }).$client;
  const client = await pool.connect();
  try {
    if (wait) await client.query('select pg_advisory_lock($1)', [FILES_ENCRYPTION_LOCK_KEY]);
    else {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [FILES_ENCRYPTION_LOCK_KEY]);
      if (!rows[0]?.locked) {
        client.release();
        return null;
      }
    }
  } catch (error) {
    client.release();
    throw error;
  }
  return async () => {
    await client.query('select pg_advisory_unlock($1)', [FILES_ENCRYPTION_LOCK_KEY]).catch(() => undefined);
    client.release();
  };
}

async function walk(options: ReencryptOptions, storage: EncryptingStorage, summary: ReencryptSummary): Promise<void> {
  const { db } = options.database;
  const batchSize = options.batchSize ?? 50;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  let last = 0;
  for (;;) {
    if (options.signal?.aborted) {
      summary.stopped = true;
      return;
    }
    const rows = await db
      .select({ id: files.id, storageKey: files.storageKey })
      .from(files)
      .where(gt(files.id, last))
      .orderBy(asc(files.id))
      .limit(batchSize);
    if (!rows.length) break;
    last = rows[rows.length - 1].id;
    let next = 0;
    let failure: { error: unknown } | null = null;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
        while (next < rows.length && !failure) {
          const row = rows[next++];
          try {
            const outcome = await one(options, storage, row);
            summary.checked += 1;
            summary[outcome] += 1;
          } catch (error) {
            // The storage failing: the others stop too, and the run ends (the next one resumes).
            failure ??= { error };
          }
        }
      }),
    );
    if (failure) throw (failure as { error: unknown }).error;
  }
  // The signed contracts kept after an erasure (issue 32) have no `files` row: rewrapped too, so an old key can be retired.
  const kept = await db
    .select({ id: retainedRecords.id, storageKey: retainedRecords.storageKey })
    .from(retainedRecords)
    .where(isNotNull(retainedRecords.storageKey))
    .orderBy(asc(retainedRecords.id));
  for (const row of kept) {
    if (options.signal?.aborted) {
      summary.stopped = true;
      return;
    }
    const outcome = await one(options, storage, { id: -row.id, storageKey: row.storageKey as string }, true);
    summary.checked += 1;
    summary[outcome] += 1;
  }
}

async function one(options: ReencryptOptions, storage: EncryptingStorage, row: { id: number; storageKey: string }, retained = false): Promise<ReencryptOutcome | 'failed'> {
  // Not a key the storage takes (`newStorageKey` makes every real one): nothing can be stored under it.
  if (!STORAGE_KEY.test(row.storageKey)) return 'missing';
  let outcome: ReencryptOutcome;
  try {
    outcome = await storage.reencrypt(row.storageKey);
  } catch (error) {
    if (!(error instanceof FileDecryptionError)) throw error;
    options.log?.warn({ fileId: row.id, reason: error.reason, err: error }, 'files encryption: a stored file cannot be opened; left as it is');
    return 'failed';
  }
  if (!retained && (outcome === 'encrypted' || outcome === 'rewrapped')) {
    // Deleted meanwhile (deleteFiles removes the row, then the bytes): the bytes just written go too.
    const [still] = await options.database.db.select({ id: files.id }).from(files).where(eq(files.storageKey, row.storageKey)).limit(1);
    if (!still) await storage.delete(row.storageKey);
  }
  return outcome;
}
