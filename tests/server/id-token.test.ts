import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { jwtVerify } from 'jose';
import { verifyIdToken } from '../../server/lib/id-token';
import { CALLBACK_ORIGIN, registerUser, testApp } from './helpers';

const SECRET = 'secretul-comun-al-aplicatiilor-partenere';
let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ idTokenSecret: SECRET });
});
afterAll(() => app.close());

async function idToken(): Promise<{ token: string; email: string; id: number }> {
  const { email, password, user } = await registerUser(app);
  const res = await app.inject({ method: 'POST', url: '/api/auth', payload: { email, password, source: 'contabilitate', callbackUrl: `${CALLBACK_ORIGIN}/cb` } });
  expect(res.statusCode).toBe(200);
  return { token: res.json().payload.id_token as string, email, id: user.id };
}

const key = new TextEncoder().encode(SECRET);
const verify = (token: string, currentDate?: Date) =>
  jwtVerify(token, key, { algorithms: ['HS256'], issuer: 'http://localhost:3000', audience: 'contabilitate', currentDate });

describe('the id_token of POST /api/auth', () => {
  it('verifies with jose and ID_TOKEN_SECRET: subject, e-mail, audience, one hour', async () => {
    const { token, email, id } = await idToken();
    const { payload, protectedHeader } = await verify(token);
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: String(id), email, aud: 'contabilitate', iss: 'http://localhost:3000' });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(await verifyIdToken(app, token, 'contabilitate')).toMatchObject({ sub: String(id), email });
  });

  it('a tampered, re-signed with another key, expired or foreign-audience token does not verify', async () => {
    const { token } = await idToken();
    const [header, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url'), signature].join('.');
    await expect(verify(tampered)).rejects.toThrow();
    expect(await verifyIdToken(app, tampered)).toBeNull();

    const none = [Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'), body, ''].join('.');
    await expect(verify(none)).rejects.toThrow();
    expect(await verifyIdToken(app, none)).toBeNull();

    await expect(jwtVerify(token, new TextEncoder().encode('alt-secret'))).rejects.toThrow();
    await expect(verify(token, new Date(Date.now() + 2 * 3600 * 1000))).rejects.toThrow();
    expect(await verifyIdToken(app, token, 'alta-aplicatie')).toBeNull();
    expect(await verifyIdToken(app, 'nu.e.jwt')).toBeNull();
  });
});
