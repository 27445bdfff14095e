import { randomBytes } from 'node:crypto';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { S3Config } from '../config';
import { S3FileStorage } from './s3-storage';
import { checkKey, type FileStorage } from './storage';

export { EncryptingStorage, fileKeyRing } from './encryption';
export {
  STORAGE_READ_FAILED,
  STORAGE_WRITE_FAILED,
  StorageUnavailableError,
  checkKey,
  newStorageKey,
  type FileStorage,
} from './storage';

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

  async head(key: string, length: number): Promise<Buffer | null> {
    let handle: FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
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

  async head(key: string, length: number): Promise<Buffer | null> {
    const data = this.entries.get(key);
    return data ? Buffer.from(data.subarray(0, length)) : null;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  /** How many files are stored (tests check that deleted files are gone). */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * The storage named by the configuration: the S3 bucket of `S3_BUCKET`, else `DATA_DIR/files/`, or
 * memory for `:memory:`. Plain storage: the app wraps it in `EncryptingStorage` (server/plugins/storage.ts).
 */
export function createFileStorage(options: { dataDir: string; s3?: S3Config | null }): FileStorage {
  if (options.s3) return new S3FileStorage(options.s3);
  if (options.dataDir === ':memory:') return new MemoryFileStorage();
  return new LocalFileStorage(path.join(path.resolve(options.dataDir), 'files'));
}
