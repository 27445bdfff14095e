import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { FieldValidationError } from '../../server/lib/http-errors';
import { SIGNATURE_MAX_BYTES, SIGNATURE_MESSAGES, signatureRule } from '../../server/registration/signature';
import { auth, placeAtStep, registerUser, ruleContextOf, testApp, type RegisteredUser, requestRowOf } from './helpers';
import { storedFileCount } from './storage-helpers';
import { JPEG, PNG, TEXT, multipartPayload, type FilePart } from './identity-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const NEW_STEP = 'requesting-company-step-5';
const NEW_NEXT = 'requesting-company-step-6';
const EXISTING_STEP = 'existing-company-step-6';
const COLLECT = '/api/registration/collect/signature';
const DELETE = '/api/registration/delete/signature';
const EXISTING_DELETE = '/api/registration/existing/delete/signature';

const storedFiles = () => storedFileCount(app);
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });
const open = async (user: RegisteredUser) =>
  (await get(user.user.registration_type === 1 ? '/api/registration/existing/open' : '/api/registration/open', user.token)).json().payload;

const signaturePng = (extra = 0): FilePart => ({ name: 'file', filename: 'semnatura.png', contentType: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(extra, 1)]) });

async function collect(user: RegisteredUser, fields: Record<string, string>, files: FilePart[] = []) {
  const { payload, contentType } = await multipartPayload({ current_step_identifier: NEW_STEP, ...fields }, files);
  return app.inject({ method: 'POST', url: COLLECT, payload, headers: { ...auth(user.token), 'content-type': contentType } });
}

async function atSignature(formData: Record<string, unknown> = {}): Promise<RegisteredUser> {
  const user = await registerUser(app, { type: 2 });
  await placeAtStep(app, user, NEW_STEP, formData);
  return user;
}

/** A user at the signature step whose signature was uploaded (and who was then sent back to it). */
async function withSavedSignature(): Promise<{ user: RegisteredUser; fileId: number }> {
  const user = await atSignature();
  const res = await collect(user, { signature: 'new' }, [signaturePng()]);
  expect(res.statusCode).toBe(200);
  const fileId = res.json().payload.signature_file_id as number;
  await placeAtStep(app, user, NEW_STEP);
  return { user, fileId };
}

const requestRow = (user: RegisteredUser) => requestRowOf(app, user);

describe('the signature step of flows/new-pfa.json', () => {
  it('is ready (the step route exists)', () => {
    const step = app.flows.byType[2].steps.find((s) => s.id === NEW_STEP)!;
    expect(step.status).toBeUndefined();
    expect(step.submit).toMatchObject({ endpoint: COLLECT, encoding: 'multipart' });
  });
});

describe(`POST ${COLLECT}`, () => {
  it('stores the drawing as semnatura.png, moves to the next step, serves the file to its owner only', async () => {
    const user = await atSignature();
    const other = await registerUser(app, { type: 2 });
    const before = await storedFiles();

    const res = await collect(user, { signature: 'new' }, [signaturePng()]);
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.step).toBe(NEW_NEXT);
    const id = payload.signature_file_id as number;
    expect(id).toEqual(expect.any(Number));
    expect(payload.form_data.signature_file_id).toBe(id);
    expect(payload.media.signature_document).toEqual({ id, url: `/api/files/${id}` });
    expect(await storedFiles()).toBe(before + 1);

    const file = await get(`/api/files/${id}`, user.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(signaturePng().data)).toBe(true);
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''semnatura.png");
    expect((await get(`/api/files/${id}`, other.token)).statusCode).toBe(404);

    // GET open answers the same.
    const opened = await open(user);
    expect(opened.signature_file_id).toBe(id);
    expect(opened.media.signature_document).toEqual({ id, url: `/api/files/${id}` });
  });

  it('the name and declared type the browser sends do not matter: the file is named semnatura.png', async () => {
    const user = await atSignature();
    const res = await collect(user, { signature: 'new' }, [{ name: 'file', filename: '../../etc/x.txt', contentType: 'text/plain', data: PNG }]);
    expect(res.statusCode).toBe(200);
    const file = await get(res.json().payload.media.signature_document.url, user.token);
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''semnatura.png");
    expect(file.headers['content-type']).toBe('image/png');
  });

  it('a new drawing replaces the saved one: the previous file is deleted', async () => {
    const { user, fileId } = await withSavedSignature();
    const before = await storedFiles();
    const res = await collect(user, { signature: 'new' }, [signaturePng(10)]);
    expect(res.statusCode).toBe(200);
    const id = res.json().payload.signature_file_id;
    expect(id).not.toBe(fileId);
    expect(await storedFiles()).toBe(before);
    expect((await get(`/api/files/${fileId}`, user.token)).statusCode).toBe(404);
    expect((await get(`/api/files/${id}`, user.token)).statusCode).toBe(200);
  });

  for (const [label, data] of [
    ['a JPEG', JPEG],
    ['a text file named .png', TEXT],
  ] as const) {
    it(`${label}: 422, nothing stored, the step and the saved signature unchanged`, async () => {
      const { user, fileId } = await withSavedSignature();
      const before = await storedFiles();
      const res = await collect(user, { signature: 'new' }, [{ name: 'file', filename: 'semnatura.png', contentType: 'image/png', data }]);
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toEqual({ file: ['Semnătura trebuie să fie o imagine PNG.'] });
      expect(await storedFiles()).toBe(before);
      const opened = await open(user);
      expect(opened.step).toBe(NEW_STEP);
      expect(opened.signature_file_id).toBe(fileId);
      expect((await get(`/api/files/${fileId}`, user.token)).statusCode).toBe(200);
    });
  }

  it('a PNG over 2 MB: 422, nothing stored', async () => {
    const user = await atSignature();
    const before = await storedFiles();
    const res = await collect(user, { signature: 'new' }, [signaturePng(SIGNATURE_MAX_BYTES)]);
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ file: [SIGNATURE_MESSAGES.tooLarge] });
    expect(await storedFiles()).toBe(before);
    expect((await open(user)).step).toBe(NEW_STEP);
  });

  it('no file and nothing saved: 422 "Semnează în chenar…", the step stays', async () => {
    const user = await atSignature();
    for (const signature of ['saved', 'new']) {
      const res = await collect(user, { signature });
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toEqual({ file: ['Semnează în chenar înainte de a merge mai departe.'] });
    }
    expect((await open(user)).step).toBe(NEW_STEP);
  });

  it('no value for `signature`: 422 by the step schema', async () => {
    const user = await atSignature();
    const res = await collect(user, {}, [signaturePng()]);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload)).toEqual(['signature']);
  });

  it('no file with a saved signature: advances and keeps it, nothing uploaded', async () => {
    const { user, fileId } = await withSavedSignature();
    const before = await storedFiles();
    const res = await collect(user, { signature: 'saved' });
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.step).toBe(NEW_NEXT);
    expect(payload.signature_file_id).toBe(fileId);
    expect(payload.media.signature_document).toEqual({ id: fileId, url: `/api/files/${fileId}` });
    expect(await storedFiles()).toBe(before);
  });

  it('a saved id that is not the user\'s file does not count as a saved signature', async () => {
    const { fileId } = await withSavedSignature();
    const thief = await atSignature({ signature_file_id: fileId });
    expect((await open(thief)).media.signature_document).toBeNull();
    expect((await open(thief)).signature_file_id).toBeNull();
    const res = await collect(thief, { signature: 'saved' });
    expect(res.statusCode).toBe(422);
  });

  it('a stale current_step_identifier: 409 with the request, nothing stored', async () => {
    const user = await atSignature();
    const before = await storedFiles();
    const res = await collect(user, { signature: 'new', current_step_identifier: 'requesting-company-step-4' }, [signaturePng()]);
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe(NEW_STEP);
    expect(await storedFiles()).toBe(before);

    // After the step was sent, sending it again is stale too.
    expect((await collect(user, { signature: 'new' }, [signaturePng()])).statusCode).toBe(200);
    const again = await collect(user, { signature: 'new' }, [signaturePng()]);
    expect(again.statusCode).toBe(409);
    expect(again.json().payload.step).toBe(NEW_NEXT);
  });

  it('an existing-company user cannot use it (403)', async () => {
    const existing = await registerUser(app, { type: 1 });
    const res = await collect(existing, { signature: 'new' }, [signaturePng()]);
    expect(res.statusCode).toBe(403);
  });
});

describe('the signature rule (also the existing-company flow\'s)', () => {
  it('checks the file and keeps the id; without a file only a saved one passes', async () => {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, EXISTING_STEP);
    const row = await requestRow(user);
    const context = await ruleContextOf(app, user, 'signature');
    const upload = { data: PNG, filename: 'x.png', mimetype: 'image/png' };

    const first = (await signatureRule({ ...context, app, body: { signature: 'new' }, request: row, files: { file: upload } })) as { signature_file_id: number };
    expect(first.signature_file_id).toEqual(expect.any(Number));
    const kept = { ...row, formData: { ...row.formData, ...first } };
    await expect(signatureRule({ ...context, app, body: { signature: 'saved' }, request: kept, files: {} })).resolves.toMatchObject({ signature_file_id: first.signature_file_id });
    await expect(signatureRule({ ...context, app, body: { signature: 'saved' }, request: row, files: {} })).rejects.toBeInstanceOf(FieldValidationError);
    await expect(
      signatureRule({ ...context, app, body: { signature: 'new' }, request: kept, files: { file: { ...upload, data: JPEG } } }),
    ).rejects.toMatchObject({ fields: { file: [SIGNATURE_MESSAGES.notPng] } });

    // A second drawing replaces the first.
    const second = (await signatureRule({ ...context, app, body: { signature: 'new' }, request: kept, files: { file: upload } })) as { signature_file_id: number };
    expect(second.signature_file_id).not.toBe(first.signature_file_id);
    expect((await get(`/api/files/${first.signature_file_id}`, user.token)).statusCode).toBe(404);
  });
});

describe('the existing PFA signs last: the dashboard takes over', () => {
  it("after POST …/existing/collect/signature (the flow's last step, navigate: dashboard), login and GET /api/user/dashboard-redirect send the user to the dashboard", async () => {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, EXISTING_STEP);
    expect((await get('/api/user/dashboard-redirect', user.token)).json().payload).toBe(false);
    const { payload, contentType } = await multipartPayload({ current_step_identifier: EXISTING_STEP, signature: 'new' }, [signaturePng()]);
    const res = await app.inject({ method: 'POST', url: '/api/registration/existing/collect/signature', payload, headers: { ...auth(user.token), 'content-type': contentType } });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.step).toBe(EXISTING_STEP);
    expect(res.json().payload.form_data.signed_at).toEqual(expect.any(String));
    // The flow file's last step leaves for the dashboard: submitting it completes the flow.
    expect(res.json().payload.form_data.flow_completed_at).toEqual(expect.any(String));
    expect((await get('/api/user/dashboard-redirect', user.token)).json().payload).toBe(true);
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
    expect(login.json().payload.dashboard_redirect).toBe(true);
  });

  it('a new PFA\'s signature does not', async () => {
    const user = await atSignature();
    expect((await collect(user, { signature: 'new' }, [signaturePng()])).statusCode).toBe(200);
    expect((await get('/api/user/dashboard-redirect', user.token)).json().payload).toBe(false);
  });
});

describe('POST …/delete/signature', () => {
  it('deletes the saved signature, forgets it in form_data and answers the request', async () => {
    const { user, fileId } = await withSavedSignature();
    const before = await storedFiles();
    const res = await app.inject({ method: 'POST', url: DELETE, headers: auth(user.token) });
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.step).toBe(NEW_STEP);
    expect(payload.signature_file_id).toBeNull();
    expect(payload.form_data.signature_file_id).toBeNull();
    expect(payload.media.signature_document).toBeNull();
    expect(await storedFiles()).toBe(before - 1);
    expect((await get(`/api/files/${fileId}`, user.token)).statusCode).toBe(404);
    // Then "next" without a drawing is refused again.
    expect((await collect(user, { signature: 'saved' })).statusCode).toBe(422);
    // Deleting again changes nothing.
    expect((await app.inject({ method: 'POST', url: DELETE, payload: { current_step_identifier: NEW_STEP }, headers: auth(user.token) })).statusCode).toBe(200);
  });

  it("touches only the caller's own signature: another user's token deletes nothing of it", async () => {
    const { user, fileId } = await withSavedSignature();
    const other = await atSignature();
    const res = await app.inject({ method: 'POST', url: DELETE, headers: auth(other.token) });
    expect(res.statusCode).toBe(200);
    expect((await get(`/api/files/${fileId}`, user.token)).statusCode).toBe(200);
    expect((await open(user)).signature_file_id).toBe(fileId);
  });

  it('a stale current_step_identifier, or a request past the signature step: 409, nothing deleted', async () => {
    const { user, fileId } = await withSavedSignature();
    const stale = await app.inject({ method: 'POST', url: DELETE, payload: { current_step_identifier: 'requesting-company-step-4' }, headers: auth(user.token) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().payload.step).toBe(NEW_STEP);

    expect((await collect(user, { signature: 'saved' })).statusCode).toBe(200);
    const moved = await app.inject({ method: 'POST', url: DELETE, headers: auth(user.token) });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().payload.step).toBe(NEW_NEXT);
    expect((await get(`/api/files/${fileId}`, user.token)).statusCode).toBe(200);
    expect((await open(user)).signature_file_id).toBe(fileId);
  });

  it('the other flow\'s route is 403', async () => {
    const { user, fileId } = await withSavedSignature();
    expect((await app.inject({ method: 'POST', url: EXISTING_DELETE, headers: auth(user.token) })).statusCode).toBe(403);
    expect((await get(`/api/files/${fileId}`, user.token)).statusCode).toBe(200);
  });

  it('the existing-company flow has its own route', async () => {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, EXISTING_STEP);
    const row = await requestRow(user);
    const context = await ruleContextOf(app, user, 'signature');
    const saved = (await signatureRule({ ...context, app, body: { signature: 'new' }, request: row, files: { file: { data: PNG, filename: 'a.png', mimetype: 'image/png' } } })) as {
      signature_file_id: number;
    };
    await placeAtStep(app, user, EXISTING_STEP, saved);
    expect((await open(user)).media.signature_document).toEqual({ id: saved.signature_file_id, url: `/api/files/${saved.signature_file_id}` });

    expect((await app.inject({ method: 'POST', url: DELETE, headers: auth(user.token) })).statusCode).toBe(403);
    const res = await app.inject({ method: 'POST', url: EXISTING_DELETE, headers: auth(user.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.signature_file_id).toBeNull();
    expect((await get(`/api/files/${saved.signature_file_id}`, user.token)).statusCode).toBe(404);
  });
});
