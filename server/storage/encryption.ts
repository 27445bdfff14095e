import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { STORAGE_READ_FAILED, StorageUnavailableError, checkKey, type FileStorage } from './storage';

/**
 * Encryption at rest of every stored file (DESIGN.md "Personal data"; docs/operations.md "Stored files",
 * FILES_ENCRYPTION_KEY): identity photos, selfies, documents, signatures, signed PDFs and the trade register's
 * documents all go through `app.storage`, which is an `EncryptingStorage` over the local folder, the
 * S3 bucket or memory.
 *
 * Envelope of one stored file (all integers unsigned, one byte):
 *
 *   magic "GHENC\0" (6) | version 1 (1) | key id length n (1) | key id (n, ASCII)
 *   | wrap iv (12) | wrapped data key (32) | wrap tag (16)
 *   | data iv (12) | data tag (16) | ciphertext (as long as the file)
 *
 * A fresh 32-byte data key per file encrypts the bytes (AES-256-GCM); the master key named by the
 * key id encrypts ("wraps") the data key (AES-256-GCM). Associated data, so nothing can be moved:
 * the wrap binds magic, version, key id and the storage key; the data binds the whole header before
 * the data iv and the storage key (a blob copied under another file's key, or a header edited, fails).
 * 96 + n bytes more than the file.
 */

export const ENVELOPE_MAGIC = Buffer.from('GHENC\0', 'latin1');
export const ENVELOPE_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Key ids: short, printable, no separator of the settings (`:` and `,`). */
export const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Enough bytes to read magic, version and the longest key id (what `keyIdOf` needs). */
export const ENVELOPE_HEAD_BYTES = ENVELOPE_MAGIC.length + 2 + 64;

export interface MasterKey {
  id: string;
  key: Buffer;
}

/** Why a stored envelope cannot be opened (the cause of the 503; never sent to the browser). */
export class FileDecryptionError extends Error {
  constructor(
    readonly reason: 'unknown-key' | 'tampered' | 'unsupported-version',
    message: string,
  ) {
    super(message);
    this.name = 'FileDecryptionError';
  }
}

/**
 * The master keys: `current` encrypts every new file; the others (FILES_ENCRYPTION_OLD_KEYS, a
 * development key left in DATA_DIR) are only read, until the re-encryption job has rewritten what
 * they protect (server/storage/encrypt-existing.ts).
 */
export class FileKeyRing {
  private readonly byId = new Map<string, Buffer>();

  constructor(
    readonly current: MasterKey,
    old: MasterKey[] = [],
  ) {
    for (const key of [current, ...old]) {
      if (!KEY_ID.test(key.id)) throw new Error(`file encryption: key id "${key.id}" is not 1 to 64 letters, digits, ".", "_" or "-"`);
      if (key.key.length !== KEY_BYTES) throw new Error(`file encryption: key "${key.id}" is not ${KEY_BYTES} bytes`);
      if (this.byId.has(key.id)) throw new Error(`file encryption: key id "${key.id}" is given twice (FILES_ENCRYPTION_KEY, FILES_ENCRYPTION_OLD_KEYS): each key needs its own id`);
      this.byId.set(key.id, key.key);
    }
  }

  /** The master key of `id`, or undefined for a key this instance does not know. */
  key(id: string): Buffer | undefined {
    return this.byId.get(id);
  }

  get ids(): string[] {
    return [...this.byId.keys()];
  }
}

/** `<key id>:<base64 of 32 bytes>` (FILES_ENCRYPTION_KEY, one item of FILES_ENCRYPTION_OLD_KEYS, DATA_DIR/files-key). */
export function parseMasterKey(text: string, where: string): MasterKey {
  const match = /^([^:]+):([A-Za-z0-9+/_-]+={0,2})$/.exec(text.trim());
  const key = match ? Buffer.from(match[2], 'base64') : null;
  if (!match || !KEY_ID.test(match[1]) || key?.length !== KEY_BYTES) {
    throw new Error(`${where}: not <key id>:<base64 of 32 random bytes> (make one with: echo "k1:$(openssl rand -base64 32)")`);
  }
  return { id: match[1], key };
}

/** A new random master key, as the settings write it. */
export function newMasterKeyText(id: string): string {
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}

/** The development key file in DATA_DIR (made at the first start without FILES_ENCRYPTION_KEY). */
export const FILES_KEY_FILE = 'files-key';

/** `DATA_DIR=:memory:` (tests): a random key for this process, so every app of the process reads what another wrote. */
let processKey: MasterKey | null = null;

/**
 * The key ring the configuration names: FILES_ENCRYPTION_KEY (required in production) and
 * FILES_ENCRYPTION_OLD_KEYS. Without a key: a random key of this process for `DATA_DIR=:memory:`
 * (tests); in development the key kept in `DATA_DIR/files-key` (made once, mode 0600, so restarts
 * read what was stored); in production an error. Outside production a `files-key` left in DATA_DIR stays readable after a key is
 * set, so its files are rewrapped under the new key instead of becoming unreadable.
 */
export function fileKeyRing(config: { production: boolean; dataDir: string; filesEncryptionKey: string | null; filesEncryptionOldKeys: string[] }): FileKeyRing {
  const old = config.filesEncryptionOldKeys.map((text, i) => parseMasterKey(text, `FILES_ENCRYPTION_OLD_KEYS (item ${i + 1})`));
  if (config.filesEncryptionKey) {
    const current = parseMasterKey(config.filesEncryptionKey, 'FILES_ENCRYPTION_KEY');
    if (!config.production && config.dataDir !== ':memory:') {
      const kept = readKeyFile(config.dataDir);
      if (kept && kept.id !== current.id && !old.some((k) => k.id === kept.id)) old.push(kept);
    }
    return new FileKeyRing(current, old);
  }
  // Nothing in memory outlives the process, whatever the mode (tests build production apps so).
  if (config.dataDir === ':memory:') {
    processKey ??= { id: `memory-${randomBytes(4).toString('hex')}`, key: randomBytes(KEY_BYTES) };
    return new FileKeyRing(processKey, old);
  }
  // Production: keys come from the environment only (server/config.ts refuses to start without it);
  // nothing is generated into DATA_DIR.
  if (config.production) throw new Error('FILES_ENCRYPTION_KEY is required in production');
  return new FileKeyRing(readKeyFile(config.dataDir) ?? makeKeyFile(config.dataDir), old);
}

function readKeyFile(dataDir: string): MasterKey | null {
  const file = path.join(dataDir, FILES_KEY_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // Never replaced: a new key would make every stored file unreadable.
  return parseMasterKey(text, file);
}

function makeKeyFile(dataDir: string): MasterKey {
  const file = path.join(dataDir, FILES_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${newMasterKeyText(`dev-${randomBytes(4).toString('hex')}`)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readKeyFile(dataDir)!;
}

function headerPrefix(keyId: string): Buffer {
  const id = Buffer.from(keyId, 'latin1');
  return Buffer.concat([ENVELOPE_MAGIC, Buffer.from([ENVELOPE_VERSION, id.length]), id]);
}

/** The envelope of `plaintext` stored under `storageKey`, with a new data key wrapped by `master`. */
export function encryptBlob(plaintext: Buffer, storageKey: string, master: MasterKey): Buffer {
  const name = Buffer.from(storageKey, 'latin1');
  const prefix = headerPrefix(master.id);
  const dataKey = randomBytes(KEY_BYTES);
  try {
    const wrapIv = randomBytes(IV_BYTES);
    const wrap = createCipheriv('aes-256-gcm', master.key, wrapIv).setAAD(Buffer.concat([prefix, name]));
    const wrapped = Buffer.concat([wrap.update(dataKey), wrap.final()]);
    const header = Buffer.concat([prefix, wrapIv, wrapped, wrap.getAuthTag()]);
    const dataIv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', dataKey, dataIv).setAAD(Buffer.concat([header, name]));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([header, dataIv, cipher.getAuthTag(), ciphertext]);
  } finally {
    dataKey.fill(0);
  }
}

/** Whether the bytes are an envelope (else: a file stored before encryption, as it was uploaded). */
export function isEnvelope(blob: Buffer): boolean {
  return blob.length >= ENVELOPE_MAGIC.length && blob.subarray(0, ENVELOPE_MAGIC.length).equals(ENVELOPE_MAGIC);
}

/**
 * The key id of an envelope (from its first bytes: `ENVELOPE_HEAD_BYTES` are enough), or null for a
 * file stored in plain text before encryption. A header cut short or of another version: FileDecryptionError.
 */
export function keyIdOf(head: Buffer): string | null {
  if (!isEnvelope(head)) return null;
  let at = ENVELOPE_MAGIC.length;
  if (head.length < at + 2) throw new FileDecryptionError('tampered', 'file envelope: header cut short');
  if (head[at] !== ENVELOPE_VERSION) throw new FileDecryptionError('unsupported-version', `file envelope: version ${head[at]} is not known`);
  const length = head[at + 1];
  at += 2;
  const id = head.subarray(at, at + length).toString('latin1');
  if (length === 0 || head.length < at + length || !KEY_ID.test(id)) throw new FileDecryptionError('tampered', 'file envelope: malformed key id');
  return id;
}

/** The plaintext of an envelope stored under `storageKey`; FileDecryptionError when its key is unknown or it was altered. */
export function decryptBlob(blob: Buffer, storageKey: string, keys: FileKeyRing): Buffer {
  const keyId = keyIdOf(blob);
  if (keyId === null) throw new FileDecryptionError('tampered', 'file envelope: no envelope');
  const master = keys.key(keyId);
  if (!master) throw new FileDecryptionError('unknown-key', `file envelope: key id "${keyId}" is not configured (FILES_ENCRYPTION_KEY / FILES_ENCRYPTION_OLD_KEYS)`);
  const name = Buffer.from(storageKey, 'latin1');
  const prefixEnd = ENVELOPE_MAGIC.length + 2 + keyId.length;
  const headerEnd = prefixEnd + IV_BYTES + KEY_BYTES + TAG_BYTES;
  const dataStart = headerEnd + IV_BYTES + TAG_BYTES;
  if (blob.length < dataStart) throw new FileDecryptionError('tampered', 'file envelope: cut short');
  const at = (start: number, length: number) => blob.subarray(start, start + length);
  let dataKey: Buffer | null = null;
  try {
    const unwrap = createDecipheriv('aes-256-gcm', master, at(prefixEnd, IV_BYTES))
      .setAAD(Buffer.concat([blob.subarray(0, prefixEnd), name]))
      .setAuthTag(at(prefixEnd + IV_BYTES + KEY_BYTES, TAG_BYTES));
    dataKey = Buffer.concat([unwrap.update(at(prefixEnd + IV_BYTES, KEY_BYTES)), unwrap.final()]);
    const decipher = createDecipheriv('aes-256-gcm', dataKey, at(headerEnd, IV_BYTES))
      .setAAD(Buffer.concat([blob.subarray(0, headerEnd), name]))
      .setAuthTag(at(headerEnd + IV_BYTES, TAG_BYTES));
    return Buffer.concat([decipher.update(blob.subarray(dataStart)), decipher.final()]);
  } catch {
    // GCM's "Unsupported state or unable to authenticate data": altered, truncated or moved.
    throw new FileDecryptionError('tampered', `file envelope: authentication failed (key id "${keyId}"): altered, cut short or not stored under this key`);
  } finally {
    dataKey?.fill(0);
  }
}

/** What the re-encryption of one stored file did (server/storage/encrypt-existing.ts). */
export type ReencryptOutcome = 'encrypted' | 'rewrapped' | 'current' | 'missing';

/**
 * A FileStorage that encrypts everything it stores (`app.storage`, server/plugins/storage.ts):
 * `put` writes an envelope under the current master key, `get` opens an envelope under any key of the
 * ring and returns a file stored before encryption (no envelope) as it is, until the re-encryption job
 * has rewritten it. An envelope under an unknown key, altered or cut short is a StorageUnavailableError
 * (503, "Fișierul nu poate fi citit acum. …"; the cause is logged, never sent).
 */
export class EncryptingStorage implements FileStorage {
  constructor(
    readonly inner: FileStorage,
    readonly keys: FileKeyRing,
  ) {}

  async put(key: string, data: Buffer, _contentType: string): Promise<void> {
    void _contentType; // the type is kept in the files table; the bucket sees only ciphertext
    checkKey(key);
    await this.inner.put(key, encryptBlob(data, key, this.keys.current), 'application/octet-stream');
  }

  async get(key: string): Promise<Buffer | null> {
    const blob = await this.inner.get(key);
    if (!blob || !isEnvelope(blob)) return blob;
    try {
      return decryptBlob(blob, key, this.keys);
    } catch (error) {
      if (error instanceof FileDecryptionError) throw new StorageUnavailableError(STORAGE_READ_FAILED, error);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
  }

  close(): void {
    this.inner.close?.();
  }

  /** How many files the storage underneath holds, when it counts them (memory storage: tests). */
  get size(): number | undefined {
    return (this.inner as { size?: number }).size;
  }

  /**
   * Rewrites the file under `key` under the current master key when it is in plain text (stored
   * before encryption) or under another key of the ring; leaves it alone when it already is under the
   * current key (only its first bytes are read, where the storage can). An unknown key or an altered
   * envelope: FileDecryptionError (the file stays as it is); the storage failing: its error.
   */
  async reencrypt(key: string): Promise<ReencryptOutcome> {
    checkKey(key);
    if (this.inner.head) {
      const head = await this.inner.head(key, ENVELOPE_HEAD_BYTES);
      if (!head) return 'missing';
      if (keyIdOf(head) === this.keys.current.id) return 'current';
    }
    const blob = await this.inner.get(key);
    if (!blob) return 'missing';
    const keyId = keyIdOf(blob);
    if (keyId === this.keys.current.id) return 'current';
    const plaintext = keyId === null ? blob : decryptBlob(blob, key, this.keys);
    await this.inner.put(key, encryptBlob(plaintext, key, this.keys.current), 'application/octet-stream');
    return keyId === null ? 'encrypted' : 'rewrapped';
  }
}
