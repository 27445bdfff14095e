import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { IdentityProvider } from '../../server/identity/types';
import { IdentityProviderError } from '../../server/identity/types';
import { auth, registerUser, testApp, testConfig, testDatabase } from './helpers';
import { HEIC, JPEG, PNG, TEXT, WEBP, createSession, lastSession, multipartPayload, sessionWithUploads, submit, upload, verify } from './identity-helpers';
import { identityApp } from './identity-setup';

/** The identity session's calls: create, upload the three photos, submit (the other identity-*.test.ts files: the decision, the address). */

let app: FastifyInstance;
const { get, post, storedFiles, approvedUser } = identityApp((made) => (app = made));

describe('POST /api/veriff/create-veriff-session', () => {
  it('creates a session with status 1, also without a body', async () => {
    const user = await registerUser(app);
    const res = await app.inject({ method: 'POST', url: '/api/veriff/create-veriff-session', headers: auth(user.token) });
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload).toEqual({ session_id: expect.any(String), custom_id: expect.any(String), status: 1 });
    expect(payload.session_id).not.toBe(payload.custom_id);
  });

  it('returns the open session again: a double click never makes two', async () => {
    const user = await registerUser(app);
    const [a, b] = await Promise.all([createSession(app, user.token), createSession(app, user.token)]);
    expect(a.session_id).toBe(b.session_id);
    expect((await createSession(app, user.token)).session_id).toBe(a.session_id);
  });

  it('the submitted session is returned too (status 4)', async () => {
    const user = await registerUser(app);
    const delayed = await testApp({ idvSimulatorDelayMs: 60_000 });
    try {
      const { session } = await sessionWithUploads(delayed, user.token);
      await submit(delayed, user.token, session.session_id);
      expect(await createSession(delayed, user.token)).toEqual({ ...session, status: 4 });
    } finally {
      await delayed.close();
    }
  });

  it('409 once the identity is verified', async () => {
    const { user } = await approvedUser();
    const res = await post('/api/veriff/create-veriff-session', user.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Identitatea ta a fost deja verificată.');
  });

  it('a provider failure is a 502 with the spec copy, and nothing is recorded', async () => {
    const failing: IdentityProvider = {
      name: 'simulator',
      createSession: async () => {
        throw new IdentityProviderError('down', 503);
      },
      uploadMedia: async () => undefined,
      submit: async () => undefined,
      decision: async () => null,
      deleteSession: async () => undefined,
    };
    const broken = await buildApp(testConfig(), { database: await testDatabase(), identity: failing });
    try {
      const user = await registerUser(broken);
      const res = await broken.inject({ method: 'POST', url: '/api/veriff/create-veriff-session', payload: {}, headers: auth(user.token) });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ message: 'Nu s-a putut iniția sesiunea de verificare. Te rugăm să încerci din nou.', payload: null });
      expect((await broken.inject({ method: 'GET', url: '/api/veriff/get-last-session', headers: auth(user.token) })).json().payload).toBeNull();
    } finally {
      await broken.close();
    }
  });
});

describe('POST /api/veriff/upload-image', () => {
  it('stores front, back and selfie in order and answers the preview url', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const before = await storedFiles();
    const res = await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', contentType: 'image/png', data: PNG });
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload).toEqual({ context: 'document-front', file_id: expect.any(Number), preview_url: `/api/files/${payload.file_id}` });
    expect(await storedFiles()).toBe(before + 1);
    const file = await get(payload.preview_url, user.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect((await upload(app, user.token, session.session_id, 'document-back', { filename: 'spate.heic', data: HEIC })).statusCode).toBe(200);
    expect((await upload(app, user.token, session.session_id, 'face', { filename: 'selfie.jpg', data: JPEG })).statusCode).toBe(200);
    const last = await lastSession(app, user.token);
    expect(last.uploads['document-back']).toMatchObject({ file_id: expect.any(Number) });
    expect((await get(last.uploads['document-back'].preview_url, user.token)).headers['content-type']).toBe('image/heic');
  });

  it('decides the type by content: a PNG named .txt is fine, a text file named .jpg is refused', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const before = await storedFiles();
    const text = await upload(app, user.token, session.session_id, 'document-front', { filename: 'buletin.jpg', contentType: 'image/jpeg', data: TEXT });
    expect(text.statusCode).toBe(422);
    expect(text.json().payload).toEqual({ media_file: ['Fotografia trebuie să fie JPEG, PNG, HEIC/HEIF sau WebP.'] });
    expect(await storedFiles()).toBe(before);
    expect((await lastSession(app, user.token)).uploads['document-front']).toBeNull();
    const renamed = await upload(app, user.token, session.session_id, 'document-front', { filename: 'notite.txt', contentType: 'text/plain', data: PNG });
    expect(renamed.statusCode).toBe(200);
    expect((await get(renamed.json().payload.preview_url, user.token)).headers['content-type']).toBe('image/png');
  });

  it('keeps the order: the back before the front and the selfie before the back are refused', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const back = await upload(app, user.token, session.session_id, 'document-back', { filename: 'spate.png', data: PNG });
    expect(back.statusCode).toBe(422);
    expect(back.json().payload).toEqual({ context: ['Încarcă mai întâi fața buletinului.'] });
    await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG });
    const face = await upload(app, user.token, session.session_id, 'face', { filename: 'selfie.png', data: PNG });
    expect(face.json().payload).toEqual({ context: ['Încarcă mai întâi spatele buletinului.'] });
    const last = await lastSession(app, user.token);
    expect(last.uploads['document-back']).toBeNull();
    expect(last.uploads.face).toBeNull();
  });

  it('a re-upload replaces the photo and deletes the old one', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const first = (await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG })).json().payload;
    await upload(app, user.token, session.session_id, 'document-back', { filename: 'spate.png', data: PNG });
    const before = await storedFiles();
    const again = await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata-2.webp', data: WEBP });
    expect(again.statusCode).toBe(200);
    expect(again.json().payload.file_id).not.toBe(first.file_id);
    expect(await storedFiles()).toBe(before);
    expect((await get(first.preview_url, user.token)).statusCode).toBe(404);
    expect((await lastSession(app, user.token)).uploads['document-front'].file_id).toBe(again.json().payload.file_id);
  });

  it('refuses missing fields, an unknown context and a JSON body, storing nothing', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const before = await storedFiles();
    const empty = await multipartPayload({});
    const none = await app.inject({ method: 'POST', url: '/api/veriff/upload-image', payload: empty.payload, headers: { ...auth(user.token), 'content-type': empty.contentType } });
    expect(none.statusCode).toBe(422);
    expect(none.json().payload).toEqual({
      session_id: ['Câmpul este obligatoriu.'],
      context: ['Câmpul este obligatoriu.'],
      media_file: ['Câmpul este obligatoriu.'],
    });
    const unknown = await upload(app, user.token, session.session_id, 'passport', { filename: 'p.png', data: PNG });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().payload).toEqual({ context: ['Tipul fotografiei nu este cunoscut.'] });
    const json = await post('/api/veriff/upload-image', user.token, { session_id: session.session_id, context: 'document-front', media_file: { data: 'iVBORw0KGgo=' } });
    expect(json.statusCode).toBe(422);
    expect(json.json().payload).toEqual({ media_file: ['Câmpul este obligatoriu.'] });
    expect(await storedFiles()).toBe(before);
  });

  it('accepts one file only', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    const body = await multipartPayload({ session_id: session.session_id, context: 'document-front' }, [
      { filename: 'a.png', data: PNG },
      { filename: 'b.png', data: PNG },
    ]);
    const res = await app.inject({ method: 'POST', url: '/api/veriff/upload-image', payload: body.payload, headers: { ...auth(user.token), 'content-type': body.contentType } });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ media_file: ['Trimite o singură fotografie odată.'] });
  });

  it('refuses a photo over IDV_MAX_UPLOAD_BYTES', async () => {
    const small = await testApp({ idvMaxUploadBytes: 1024 });
    try {
      const user = await registerUser(small);
      const session = await createSession(small, user.token);
      const big = Buffer.concat([PNG, Buffer.alloc(2048, 1)]);
      const res = await upload(small, user.token, session.session_id, 'document-front', { filename: 'mare.png', data: big });
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toEqual({ media_file: ['Fotografia poate avea cel mult 1 KB.'] });
      expect((await lastSession(small, user.token)).uploads['document-front']).toBeNull();
    } finally {
      await small.close();
    }
  });

  it('over real HTTP: a photo larger than the JSON body limit goes through, one over the limit is a 422', async () => {
    const server = await testApp({ idvMaxUploadBytes: 3 * 1024 * 1024 });
    try {
      await server.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
      const user = await registerUser(server);
      const session = await createSession(server, user.token);
      const send = async (size: number) => {
        const form = new FormData();
        form.append('session_id', session.session_id);
        form.append('context', 'document-front');
        form.append('media_file', new Blob([new Uint8Array(Buffer.concat([PNG, Buffer.alloc(size)]))]), 'fata.png');
        const res = await fetch(`${base}/api/veriff/upload-image`, { method: 'POST', body: form, headers: auth(user.token) });
        return { status: res.status, body: await res.json() };
      };
      expect(await send(2 * 1024 * 1024)).toMatchObject({ status: 200, body: { payload: { context: 'document-front' } } });
      expect(await send(4 * 1024 * 1024)).toEqual({
        status: 422,
        body: { message: 'Datele trimise nu sunt valide.', payload: { media_file: ['Fotografia poate avea cel mult 3 MB.'] } },
      });
    } finally {
      await server.close();
    }
  });

  it("another user's session is not found (404 with the session-not-found code)", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const session = await createSession(app, owner.token);
    const res = await upload(app, other.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG });
    expect(res.statusCode).toBe(404);
    expect(res.json().payload).toEqual({ code: 'VERIFF_SESSION_NOT_FOUND' });
    expect((await lastSession(app, owner.token)).uploads['document-front']).toBeNull();
    const unknown = await upload(app, owner.token, 'nu-exista', 'document-front', { filename: 'fata.png', data: PNG });
    expect(unknown.statusCode).toBe(404);
  });

  it('no token: 401 before the body is read', async () => {
    const body = await multipartPayload({ session_id: 'x', context: 'document-front' }, [{ filename: 'a.png', data: PNG }]);
    const res = await app.inject({ method: 'POST', url: '/api/veriff/upload-image', payload: body.payload, headers: { 'content-type': body.contentType } });
    expect(res.statusCode).toBe(401);
  });

  it('409 once the session is submitted', async () => {
    const user = await registerUser(app);
    const delayed = await testApp({ idvSimulatorDelayMs: 60_000 });
    try {
      const { session } = await sessionWithUploads(delayed, user.token);
      await submit(delayed, user.token, session.session_id);
      const res = await upload(delayed, user.token, session.session_id, 'face', { filename: 'selfie.png', data: PNG });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Fotografiile au fost deja trimise pentru verificare. Pentru fotografii noi, șterge sesiunea și reîncepe procesul.');
    } finally {
      await delayed.close();
    }
  });
});

describe('PATCH /api/veriff/submit-session', () => {
  it('needs all three photos first', async () => {
    const user = await registerUser(app);
    const session = await createSession(app, user.token);
    await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG });
    await upload(app, user.token, session.session_id, 'document-back', { filename: 'spate.png', data: PNG });
    const res = await submit(app, user.token, session.session_id);
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ session_id: ['Încarcă toate cele trei fotografii înainte de a trimite.'] });
    expect(await lastSession(app, user.token)).toMatchObject({ status: 1, submitted: false });
  });

  it('moves to 4 once; a second submit changes nothing', async () => {
    const user = await registerUser(app);
    const delayed = await testApp({ idvSimulatorDelayMs: 60_000 });
    try {
      const { session } = await sessionWithUploads(delayed, user.token);
      const first = await submit(delayed, user.token, session.session_id);
      expect(first.statusCode).toBe(200);
      expect(first.json().payload).toEqual({ status: 4 });
      const again = await submit(delayed, user.token, session.session_id);
      expect(again.json().payload).toEqual({ status: 4 });
      expect(await lastSession(delayed, user.token)).toMatchObject({ status: 4, submitted: true });
      // The simulator decides only after its delay.
      expect((await verify(delayed, user.token, session)).json().payload).toEqual({ status: 4 });
    } finally {
      await delayed.close();
    }
  });

  it("404 for another user's session; 422 without session_id", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const { session } = await sessionWithUploads(app, owner.token);
    const res = await submit(app, other.token, session.session_id);
    expect(res.statusCode).toBe(404);
    expect(res.json().payload).toEqual({ code: 'VERIFF_SESSION_NOT_FOUND' });
    expect(await lastSession(app, owner.token)).toMatchObject({ status: 1 });
    const missing = await app.inject({ method: 'PATCH', url: '/api/veriff/submit-session', payload: {}, headers: auth(owner.token) });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({ session_id: ['Câmpul este obligatoriu.'] });
  });
});
