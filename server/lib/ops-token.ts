import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The file in DATA_DIR that keeps the generated operator token (read by `npm run ops`). */
export const OPS_TOKEN_FILE = 'ops-token';
/** Shorter tokens are refused: the operator API changes dossiers. */
export const OPS_TOKEN_MIN_LENGTH = 16;

/**
 * The operator API's bearer token: `OPS_TOKEN`, else a random token created once and kept in
 * `DATA_DIR/ops-token` (mode 0600), the way the id-token key is kept (development only: production
 * takes it from the environment). Null (the API is off) for
 * `DATA_DIR=:memory:` without `OPS_TOKEN`: nobody could read a token that lives nowhere.
 */
export function resolveOpsToken(config: { opsToken: string | null; dataDir: string; production?: boolean }): string | null {
  if (config.opsToken) {
    if (config.opsToken.length < OPS_TOKEN_MIN_LENGTH) throw new Error(`OPS_TOKEN must have at least ${OPS_TOKEN_MIN_LENGTH} characters`);
    return config.opsToken;
  }
  // Production: tokens come from the environment only (server/config.ts refuses to start without
  // it); nothing is generated into DATA_DIR, the operator API is off.
  if (config.production) return null;
  if (config.dataDir === ':memory:') return null;
  const file = path.join(config.dataDir, OPS_TOKEN_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const token = fs.readFileSync(file, 'utf8').trim();
  if (token.length < OPS_TOKEN_MIN_LENGTH) throw new Error(`${file} holds no usable token: delete it and restart to have a new one made`);
  return token;
}

/** Constant-time comparison (both sides hashed first, so their lengths never leak either). */
export function sameToken(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
