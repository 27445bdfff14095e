import fs from 'node:fs';
import { randomBytes, scryptSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/lib/passwords';
import { BUSY_MESSAGE, ScryptPool, hashThreads } from '../../server/lib/hash-pool';

/** Issue 14: password hashing runs on its own threads, so file I/O never waits behind it. */

const PARAMS = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

describe('password hashes', () => {
  it('keep the format scrypt$N$r$p$salt$hash with the same parameters', async () => {
    const stored = await hashPassword('parola-sigura');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    // The key is exactly what Node's scrypt derives from the salt: nothing about the hash changed.
    expect(scryptSync('parola-sigura', Buffer.from(salt, 'base64url'), 64, PARAMS).toString('base64url')).toBe(hash);
    expect(await verifyPassword('parola-sigura', stored)).toBe(true);
    expect(await verifyPassword('parola-gresita', stored)).toBe(false);
  });

  it('made before (crypto.scrypt in the main thread) still verify: existing users still log in', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('Parolă-veche-1'.normalize('NFKC'), salt, 64, PARAMS);
    const stored = ['scrypt', 32768, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('Parolă-veche-1', stored)).toBe(true);
    expect(await verifyPassword('Parola-veche-1', stored)).toBe(false);
  });

  it('do not hold file reads back: a read started behind 8 hashes finishes before any of them', async () => {
    const order: string[] = [];
    const hashes = Array.from({ length: 8 }, (_, i) => hashPassword(`parola-${i}`).then(() => order.push('hash')));
    // With scrypt on libuv's 4 threads this read waited until a hash gave a thread back.
    await fs.promises.readFile(fileURLToPath(import.meta.url)).then(() => order.push('read'));
    await Promise.all(hashes);
    expect(order[0]).toBe('read');
    expect(order.filter((o) => o === 'hash')).toHaveLength(8);
  });
});

describe('the hashing threads', () => {
  it('PASSWORD_HASH_THREADS names their number; by default one less than the CPUs, 1 to 4', () => {
    expect(hashThreads({ PASSWORD_HASH_THREADS: '3' })).toBe(3);
    const byDefault = hashThreads({});
    expect(byDefault).toBeGreaterThanOrEqual(1);
    expect(byDefault).toBeLessThanOrEqual(4);
    expect(hashThreads({ PASSWORD_HASH_THREADS: 'multe' })).toBe(byDefault);
  });

  it('queue at most as many hashes as allowed; one more is refused with 503 and the others finish', async () => {
    const pool = new ScryptPool(1, 2);
    const salt = randomBytes(16);
    const running = pool.scrypt('a', salt, 64, PARAMS);
    const waiting = [pool.scrypt('b', salt, 64, PARAMS), pool.scrypt('c', salt, 64, PARAMS)];
    expect(pool.waiting).toBe(2);
    await expect(pool.scrypt('d', salt, 64, PARAMS)).rejects.toMatchObject({ statusCode: 503, message: BUSY_MESSAGE });
    const keys = await Promise.all([running, ...waiting]);
    expect(keys.map((k) => k.toString('hex'))).toEqual(['a', 'b', 'c'].map((pw) => scryptSync(pw, salt, 64, PARAMS).toString('hex')));
  });
});
