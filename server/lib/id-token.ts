import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

const keys = new WeakMap<FastifyInstance, Buffer>();

/** `ID_TOKEN_SECRET`, else a random key created once and kept in DATA_DIR (in memory for ':memory:'). */
function signingKey(app: FastifyInstance): Buffer {
  let key = keys.get(app);
  if (key) return key;
  const { idTokenSecret, dataDir } = app.config;
  if (idTokenSecret) key = Buffer.from(idTokenSecret);
  else if (dataDir === ':memory:') key = randomBytes(32);
  else {
    const file = path.join(dataDir, 'id-token.key');
    fs.mkdirSync(dataDir, { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim());
  }
  keys.set(app, key);
  return key;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact HS256 JWT identifying the user to the application that asked through /auth (valid 1 hour). */
export function signIdToken(app: FastifyInstance, claims: { sub: string; email: string; aud: string }): string {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: app.config.publicUrl, iat: now, exp: now + 3600, ...claims })}`;
  const signature = createHmac('sha256', signingKey(app)).update(body).digest('base64url');
  return `${body}.${signature}`;
}

export function verifyIdToken(app: FastifyInstance, token: string): Record<string, unknown> | null {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', signingKey(app)).update(`${header}.${payload}`).digest('base64url');
  if (expected !== signature) return null;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  return typeof claims.exp === 'number' && claims.exp * 1000 > Date.now() ? claims : null;
}
