import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import sharp from 'sharp';
import type { MasterKey } from '../../server/storage/encryption';

/** Shared by file-encryption.test.ts and file-encryption-app.test.ts. */

export const key = (id: string): MasterKey => ({ id, key: randomBytes(32) });
export const K1 = key('k2025');
export const K2 = key('k2026');
export const PDF = Buffer.from('%PDF-1.7\nun contract semnat de Ion Popescu, CNP 1900101400011\n%%EOF\n');

/** A maker of temporary folders, removed after the calling file's tests. */
export function tempDirs(): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ghiseu-enc-'));
    dirs.push(dir);
    return dir;
  };
}

/** A photo of random pixels (no two 64-byte runs alike), `side`×`side` PNG. */
export function noisePhoto(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
}
