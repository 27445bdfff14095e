import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { S3Config } from '../config';
import { HttpError } from '../lib/http-errors';
import { S3FileStorage } from './s3-storage';

/**
 * Where uploaded bytes live (DESIGN.md "Real parts"): a local folder by default, an S3 bucket
 * when `S3_BUCKET` is set (s3-storage.ts). Keys are random names made by `newStorageKey()`; what a file is, whose
 * it is and its original name are kept in the `files` table, never in the key.
 */
export interface FileStorage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections (the app's onClose). */
  close?(): void;
}

export const STORAGE_WRITE_FAILED = 'Fișierul nu a putut fi salvat acum. Te rugăm să încerci din nou peste câteva minute.';
export const STORAGE_READ_FAILED = 'Fișierul nu poate fi citit acum. Te rugăm să încerci din nou peste câteva minute.';

/** The storage could not be reached or refused a write: 503 with a Romanian message (the cause goes to the log). */
export class StorageUnavailableError extends HttpError {
  constructor(message: string, cause: unknown) {
    super(503, message, null, cause);
  }
}

const KEY = /^[a-f0-9]{32,64}$/;

/** A random, unguessable storage key (hex). */
export function newStorageKey(): string {
  return randomBytes(20).toString('hex');
}

export function checkKey(key: string): void {
  // Keys are ours, but a key is also a file name: nothing but hex may reach the file system.
  if (!KEY.test(key)) throw new Error('invalid storage key');
}

/** Files under `dir` (DATA_DIR/files), fanned out by the first two characters of the key. */
export class LocalFileStorage implements FileStorage {
  constructor(readonly dir: string) {}

  private pathOf(key: string): string {
    checkKey(key);
    return path.join(this.dir, key.slice(0, 2), key);
  }

  async put(key: string, data: Buffer, _contentType: string): Promise<void> {
    void _contentType; // the type is kept in the files table
    const file = this.pathOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written under a temporary name and renamed: a reader never sees half a file.
    const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    // fsync before the rename, and of the folder after it: a crash leaves the old file or the whole new one.
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
    const folder = await fs.open(path.dirname(file), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}

/** Bytes kept in memory: tests (`DATA_DIR=:memory:`). */
export class MemoryFileStorage implements FileStorage {
  private readonly entries = new Map<string, Buffer>();

  async put(key: string, data: Buffer, _contentType: string): Promise<void> {
    void _contentType;
    checkKey(key);
    this.entries.set(key, Buffer.from(data));
  }

  async get(key: string): Promise<Buffer | null> {
    const data = this.entries.get(key);
    return data ? Buffer.from(data) : null;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  /** How many files are stored (tests check that deleted files are gone). */
  get size(): number {
    return this.entries.size;
  }
}

/** The storage named by the configuration: the S3 bucket of `S3_BUCKET`, else `DATA_DIR/files/`, or memory for `:memory:`. */
export function createFileStorage(options: { dataDir: string; s3?: S3Config | null }): FileStorage {
  if (options.s3) return new S3FileStorage(options.s3);
  if (options.dataDir === ':memory:') return new MemoryFileStorage();
  return new LocalFileStorage(path.join(path.resolve(options.dataDir), 'files'));
}
