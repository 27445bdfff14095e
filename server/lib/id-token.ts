import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';

const keys = new WeakMap<FastifyInstance, Buffer>();

/** `ID_TOKEN_SECRET`, else (development only) a random key created once and kept in DATA_DIR (in memory for ':memory:'). */
function signingKey(app: FastifyInstance): Buffer {
  let key = keys.get(app);
  if (key) return key;
  const { idTokenSecret, dataDir } = app.config;
  if (idTokenSecret) key = Buffer.from(idTokenSecret);
  // Production: keys come from the environment only (server/config.ts refuses to start without it).
  else if (app.config.production) throw new Error('ID_TOKEN_SECRET is required in production');
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

/**
 * A compact HS256 JWT identifying the user to the application that asked through /auth (spec 000:
 * the id_token in the callback; valid 1 hour). Signed with `jose`; the other application verifies it
 * with the same secret (`ID_TOKEN_SECRET`).
 */
export async function signIdToken(app: FastifyInstance, claims: { sub: string; email: string; aud: string }): Promise<string> {
  return new SignJWT({ email: claims.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setAudience(claims.aud)
    .setIssuer(app.config.publicUrl)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(signingKey(app));
}

/** The claims of a valid, unexpired id_token issued by this server (for `audience` when given); null otherwise. */
export async function verifyIdToken(app: FastifyInstance, token: string, audience?: string): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(app), { algorithms: ['HS256'], issuer: app.config.publicUrl, audience });
    return payload as Record<string, unknown>;
  } catch {
    return null;
  }
}
