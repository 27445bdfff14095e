import { randomBytes } from 'node:crypto';
import { HttpError } from '../lib/http-errors';

/**
 * Where uploaded bytes live (DESIGN.md "Real parts"): a local folder by default, an S3 bucket
 * when `S3_BUCKET` is set (s3-storage.ts). Keys are random names made by `newStorageKey()`; what a file is, whose
 * it is and its original name are kept in the `files` table, never in the key. The app's storage
 * (`app.storage`) wraps these in `EncryptingStorage` (encryption.ts): what they hold is ciphertext.
 */
export interface FileStorage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The first `length` bytes (all of them when the file is shorter), or null when nothing is stored:
   * the re-encryption job reads an envelope's key id without reading the whole file. Optional.
   */
  head?(key: string, length: number): Promise<Buffer | null>;
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

/** What a storage key looks like (hex; `newStorageKey` makes 40 characters). */
export const STORAGE_KEY = /^[a-f0-9]{32,64}$/;

/** A random, unguessable storage key (hex). */
export function newStorageKey(): string {
  return randomBytes(20).toString('hex');
}

export function checkKey(key: string): void {
  // Keys are ours, but a key is also a file name: nothing but hex may reach the file system.
  if (!STORAGE_KEY.test(key)) throw new Error('invalid storage key');
}
