import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { isValidCnp } from '../../server/identity/romanian-person';
import type { IdentityProvider } from '../../server/identity/types';
import { IdentityProviderError } from '../../server/identity/types';
import { auth, placeAtStep, registerUser, testApp, testConfig, testDatabase, type RegisteredUser } from './helpers';
import { storedFileCount } from './storage-helpers';
import {
  HEIC,
  JPEG,
  PNG,
  TEXT,
  WEBP,
  createSession,
  lastSession,
  multipartPayload,
  place,
  sessionWithUploads,
  submit,
  upload,
  verify,
} from './identity-helpers';
import { localeText } from '../copy';

/** The Romanian reason of a Veriff code, as the identity step's copy has it (locales/ro/steps.json). */
const reason = (code: number) => localeText(`steps:identity.reasons.${code}`);

/** Decides at once (IDV_SIMULATOR_DELAY_MS=0). */
let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp({ idvSimulatorDelayMs: 0 });
});
afterAll(() => app.close());

const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });
const post = (url: string, token: string, payload: object = {}) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const storedFiles = () => storedFileCount(app);
const query = (s: { session_id: string; custom_id: string }) => `session_id=${encodeURIComponent(s.session_id)}&custom_id=${encodeURIComponent(s.custom_id)}`;

async function approvedUser(type: 1 | 2 = 2): Promise<{ user: RegisteredUser; session: { session_id: string; custom_id: string } }> {
  const user = await registerUser(app, { type });
  const { session } = await sessionWithUploads(app, user.token);
  expect((await submit(app, user.token, session.session_id)).statusCode).toBe(200);
  expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
  return { user, session };
}

async function address(token: string, overrides: Record<string, unknown> = {}) {
  const cluj = await place(app, 'Cluj', 'Cluj-Napoca');
  return post('/api/registration/update-user-info', token, {
    first_name: 'Ana',
    last_name: 'Pop',
    place_of_birth: '',
    ...cluj,
    street: 'Memorandumului',
    number: '28',
    building: 'A2',
    entrance: 'B',
    floor: '3',
    apartment: '12',
    postal_code: '400114',
    ...overrides,
  });
}

describe('POST /api/veriff/create-veriff-session', () => {
  it('needs a token', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/veriff/create-veriff-session' });
    expect(res.statusCode).toBe(401);
  });

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

describe('the simulator decides', () => {
  it('approves with a Romanian person written into the profile, keeping the typed address', async () => {
    const user = await registerUser(app);
    // A name the simulator never picks, so the assertion below cannot pass or fail by chance.
    expect((await address(user.token, { first_name: 'Zamfira', last_name: 'Pop' })).statusCode).toBe(200);
    const { session } = await sessionWithUploads(app, user.token);
    await submit(app, user.token, session.session_id);
    const res = await verify(app, user.token, session);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual({ status: 2 });
    const { profile } = (await get('/api/registration/open', user.token)).json().payload;
    expect(profile.first_name).toMatch(/^\p{Lu}\p{Ll}+$/u);
    expect(profile.first_name).not.toBe('Zamfira');
    expect(isValidCnp(profile.personal_code)).toBe(true);
    expect(profile.place_of_birth).toMatch(/^Mun\. /);
    expect(profile).toMatchObject({ street: 'Memorandumului', number: '28', city: 'Cluj-Napoca', county: 'Cluj', address_1: 'Str. Memorandumului nr. 28, bl. A2, sc. B, et. 3, ap. 12' });
    // The card's address is recorded as read, the typed one stays.
    expect(profile.document_address).toMatch(/ nr\. \d+/);
    const error = await get(`/api/veriff/get-veriff-error?${query(session)}`, user.token);
    expect(error.json().payload).toEqual({ code: null, translated_reason: null });
    // The same session always yields the same person.
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
  });

  it("approves with the card's address matched to the register: the profile has the home address, the step can go on", async () => {
    const user = await registerUser(app);
    const step = 'requesting-company-step-1';
    await placeAtStep(app, user, step);
    const { session } = await sessionWithUploads(app, user.token);
    await submit(app, user.token, session.session_id);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    const { profile } = (await get('/api/registration/open', user.token)).json().payload;
    expect(profile.document_address).toMatch(/^(Mun\.|Or\.|Com\.) .+ nr\. \d+/);
    expect(profile).toMatchObject({ county_id: expect.any(Number), city_id: expect.any(Number), street: expect.any(String), number: expect.stringMatching(/^\d+$/) });
    expect(profile.street).not.toBe('');
    expect(profile.address_1).toMatch(new RegExp(`nr\\. ${profile.number}`));
    expect(profile.address_2).toContain(profile.city);
    // The profile is what the address form would have saved: the same county, city and lines.
    const places = await get(`/api/nomenclature/city/index/0/25?county_id=${profile.county_id}&search_term=${encodeURIComponent(profile.city.split(',')[0])}`);
    expect(places.json().payload.data.map((c: { id: number }) => c.id)).toContain(profile.city_id);
    const ok = await post('/api/registration/confirm/identity-file', user.token, { verified: true, current_step_identifier: step });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.step).toBe('requesting-company-step-2');
  });

  it('a village address without a street: county, village and number known, the street asked for', async () => {
    const user = await registerUser(app);
    const { session } = await sessionWithUploads(app, user.token, ['fata-fara-strada.png', 'spate.jpg', 'selfie.webp']);
    await submit(app, user.token, session.session_id);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    const { profile } = (await get('/api/registration/open', user.token)).json().payload;
    expect(profile.document_address).toMatch(/^(Com\.|Or\.) .+, Sat .+ nr\. \d+, Jud\. /);
    expect(profile).toMatchObject({ county_id: expect.any(Number), city_id: expect.any(Number), city: expect.stringMatching(/, (comuna|orașul) /), number: expect.any(String) });
    expect(profile.street).toBeUndefined();
    expect(profile.address_1).toBeUndefined();
  });

  it('an address whose locality is not certain: county and street kept, the locality left for the applicant, never stuck', async () => {
    const user = await registerUser(app);
    const step = 'requesting-company-step-1';
    await placeAtStep(app, user, step);
    const { session } = await sessionWithUploads(app, user.token, ['fata.png', 'spate-adresa-nesigura.jpg', 'selfie.webp']);
    await submit(app, user.token, session.session_id);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    const { profile } = (await get('/api/registration/open', user.token)).json().payload;
    expect(profile.document_address).toMatch(/^Sat .+, Str\. .+ nr\. \d+, Jud\. /);
    expect(profile).toMatchObject({ county_id: expect.any(Number), county: expect.any(String), street: expect.any(String), number: expect.any(String) });
    expect(profile.city_id).toBeUndefined();
    expect(profile.address_1).toBeUndefined();
    // The step waits for the locality; the address form (prefilled from the profile) gives it.
    const waiting = await post('/api/registration/confirm/identity-file', user.token, { verified: true, current_step_identifier: step });
    expect(waiting.json().payload).toEqual({ verified: ['Avem nevoie de adresa ta de domiciliu'] });
    const village = profile.document_address.match(/^Sat ([^,]+),/)[1] as string;
    const cities = (await get(`/api/nomenclature/city/index/0/25?county_id=${profile.county_id}&search_term=${encodeURIComponent(village)}`)).json().payload.data;
    expect(cities.length).toBeGreaterThan(1);
    const saved = await post('/api/registration/update-user-info', user.token, {
      first_name: profile.first_name,
      last_name: profile.last_name,
      place_of_birth: '',
      county_id: profile.county_id,
      city_id: cities[0].id,
      street: profile.street,
      number: profile.number,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payload.profile).toMatchObject({ city_id: cities[0].id, document_address: profile.document_address });
    const ok = await post('/api/registration/confirm/identity-file', user.token, { verified: true, current_step_identifier: step });
    expect(ok.statusCode).toBe(200);
  });

  it('no address read from the card ("fara-adresa"): the profile has none', async () => {
    const user = await registerUser(app);
    const { session } = await sessionWithUploads(app, user.token, ['fata-fara-adresa.png', 'spate.jpg', 'selfie.webp']);
    await submit(app, user.token, session.session_id);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    const { profile } = (await get('/api/registration/open', user.token)).json().payload;
    expect(Object.keys(profile).sort()).toEqual(['first_name', 'last_name', 'personal_code', 'place_of_birth']);
  });

  it('declines when a photo is named "reject…", with the Romanian reason in get-veriff-error', async () => {
    const user = await registerUser(app);
    const { session } = await sessionWithUploads(app, user.token, ['reject-fata.png', 'spate.jpg', 'selfie.webp']);
    await submit(app, user.token, session.session_id);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 3 });
    const error = await get(`/api/veriff/get-veriff-error?${query(session)}`, user.token);
    expect(error.statusCode).toBe(200);
    expect(error.json().payload).toEqual({ code: 204, translated_reason: reason(204) });
    const { profile } = (await get('/api/registration/open', user.token)).json().payload;
    expect(profile.personal_code).toBeUndefined();
    // After a rejection a new session can be started.
    const next = await createSession(app, user.token);
    expect(next.session_id).not.toBe(session.session_id);
    expect(await lastSession(app, user.token)).toMatchObject({ session_id: next.session_id, status: 1 });
  });

  it('verify and get-veriff-error need the matching custom_id and the owner', async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const session = await createSession(app, owner.token);
    expect((await get(`/api/veriff/verify-veriff-session?${query(session)}`, other.token)).statusCode).toBe(404);
    expect((await get(`/api/veriff/get-veriff-error?${query(session)}`, other.token)).statusCode).toBe(404);
    const wrong = await get(`/api/veriff/verify-veriff-session?${query({ ...session, custom_id: 'altceva' })}`, owner.token);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().payload).toEqual({ code: 'VERIFF_SESSION_NOT_FOUND' });
    const missing = await get(`/api/veriff/verify-veriff-session?session_id=${session.session_id}`, owner.token);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({ custom_id: ['Câmpul este obligatoriu.'] });
    expect((await get(`/api/veriff/verify-veriff-session?${query(session)}`, owner.token)).json().payload).toEqual({ status: 1 });
  });
});

describe('GET /api/veriff/get-last-session', () => {
  it('null without a session, then the session with its uploads', async () => {
    const user = await registerUser(app);
    const none = await get('/api/veriff/get-last-session', user.token);
    expect(none.statusCode).toBe(200);
    expect(none.json().payload).toBeNull();
    const session = await createSession(app, user.token);
    const front = (await upload(app, user.token, session.session_id, 'document-front', { filename: 'fata.png', data: PNG })).json().payload;
    expect(await lastSession(app, user.token)).toEqual({
      ...session,
      status: 1,
      submitted: false,
      uploads: { 'document-front': { file_id: front.file_id, preview_url: front.preview_url }, 'document-back': null, face: null },
    });
    expect((await get('/api/veriff/get-last-session')).statusCode).toBe(401);
  });

  it("the request's media name the three photos", async () => {
    const user = await registerUser(app);
    expect((await get('/api/registration/open', user.token)).json().payload.media).toEqual({
      identity_document: null,
      veriff_document_front: null,
      veriff_document_back: null,
      selfie_document: null,
      signature_document: null,
      diploma_documents: [],
      driver_license: [],
      trade_register_documents: [],
      signed_documents: [],
    });
    const { uploads } = await sessionWithUploads(app, user.token);
    expect((await get('/api/registration/open', user.token)).json().payload.media).toEqual({
      identity_document: null,
      veriff_document_front: { id: uploads[0].file_id, url: uploads[0].preview_url },
      veriff_document_back: { id: uploads[1].file_id, url: uploads[1].preview_url },
      selfie_document: { id: uploads[2].file_id, url: uploads[2].preview_url },
      signature_document: null,
      diploma_documents: [],
      driver_license: [],
      trade_register_documents: [],
      signed_documents: [],
    });
  });
});

describe('deleting a session', () => {
  it('DELETE /api/veriff/delete-session removes the session and its photos', async () => {
    const user = await registerUser(app);
    const { session, uploads } = await sessionWithUploads(app, user.token);
    const before = await storedFiles();
    const res = await app.inject({ method: 'DELETE', url: '/api/veriff/delete-session', payload: session, headers: auth(user.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Sesiunea de verificare a fost ștearsă.', payload: null });
    expect(await storedFiles()).toBe(before - 3);
    for (const u of uploads) expect((await get(u.preview_url, user.token)).statusCode).toBe(404);
    expect(await lastSession(app, user.token)).toBeNull();
    expect((await verify(app, user.token, session)).statusCode).toBe(404);
    const again = await app.inject({ method: 'DELETE', url: '/api/veriff/delete-session', payload: session, headers: auth(user.token) });
    expect(again.statusCode).toBe(404);
    expect((await createSession(app, user.token)).session_id).not.toBe(session.session_id);
  });

  it("another user's session, or the wrong custom_id, is not found and stays", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const { session } = await sessionWithUploads(app, owner.token);
    const foreign = await app.inject({ method: 'DELETE', url: '/api/veriff/delete-session', payload: session, headers: auth(other.token) });
    expect(foreign.statusCode).toBe(404);
    const wrong = await app.inject({
      method: 'DELETE',
      url: '/api/veriff/delete-session',
      payload: { ...session, custom_id: 'x' },
      headers: auth(owner.token),
    });
    expect(wrong.statusCode).toBe(404);
    const missing = await app.inject({ method: 'DELETE', url: '/api/veriff/delete-session', payload: { session_id: session.session_id }, headers: auth(owner.token) });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({ custom_id: ['Câmpul este obligatoriu.'] });
    expect(await lastSession(app, owner.token)).toMatchObject({ session_id: session.session_id, status: 1 });
  });

  it('POST /api/registration/delete/identity-document answers the request without the photos', async () => {
    const user = await registerUser(app);
    const { uploads } = await sessionWithUploads(app, user.token);
    const res = await post('/api/registration/delete/identity-document', user.token, { current_step_identifier: 'requesting-company-step-0' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({
      registration_type: 2,
      media: { veriff_document_front: null, veriff_document_back: null, selfie_document: null },
    });
    expect((await get(uploads[0].preview_url, user.token)).statusCode).toBe(404);
    expect(await lastSession(app, user.token)).toBeNull();
    // Without a body, and with nothing to delete, it still answers the request.
    const bare = await app.inject({ method: 'POST', url: '/api/registration/delete/identity-document', headers: auth(user.token) });
    expect(bare.statusCode).toBe(200);
  });

  it('a stale step identifier is a 409 and deletes nothing', async () => {
    const user = await registerUser(app);
    await sessionWithUploads(app, user.token);
    const res = await post('/api/registration/delete/identity-document', user.token, { current_step_identifier: 'requesting-company-step-4' });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe('requesting-company-step-0');
    expect(await lastSession(app, user.token)).not.toBeNull();
  });

  it('the existing flow has its own endpoint; the wrong flow is 403', async () => {
    const existing = await registerUser(app, { type: 1 });
    const { uploads } = await sessionWithUploads(app, existing.token);
    expect((await post('/api/registration/delete/identity-document', existing.token)).statusCode).toBe(403);
    expect(await lastSession(app, existing.token)).not.toBeNull();
    const res = await post('/api/registration/existing/delete/identity-document', existing.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ registration_type: 1, media: { veriff_document_front: null } });
    expect((await get(uploads[0].preview_url, existing.token)).statusCode).toBe(404);
    const requesting = await registerUser(app);
    expect((await post('/api/registration/existing/delete/identity-document', requesting.token)).statusCode).toBe(403);
  });
});

describe('POST /api/registration/update-user-info', () => {
  it('saves the address with formatted lines and answers the request', async () => {
    const user = await registerUser(app);
    const res = await address(user.token, { place_of_birth: 'Mun. Dej, jud. Cluj' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Informațiile au fost modificate.');
    const cluj = await place(app, 'Cluj', 'Cluj-Napoca');
    expect(res.json().payload.profile).toEqual({
      first_name: 'Ana',
      last_name: 'Pop',
      place_of_birth: 'Mun. Dej, jud. Cluj',
      county_id: cluj.county_id,
      county: 'Cluj',
      city_id: cluj.city_id,
      city: 'Cluj-Napoca',
      street: 'Memorandumului',
      number: '28',
      building: 'A2',
      entrance: 'B',
      floor: '3',
      apartment: '12',
      postal_code: '400114',
      address_1: 'Str. Memorandumului nr. 28, bl. A2, sc. B, et. 3, ap. 12',
      address_2: 'Cluj-Napoca, județul Cluj, 400114',
    });
  });

  it('București and a street that names its kind', async () => {
    const user = await registerUser(app, { type: 1 });
    const sector = await place(app, 'București', 'Sectorul 3');
    const res = await address(user.token, { ...sector, street: 'Bd. Unirii', building: '', entrance: '', floor: '', apartment: '', postal_code: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({
      registration_type: 1,
      profile: { address_1: 'Bd. Unirii nr. 28', address_2: 'Sectorul 3, București', postal_code: '' },
    });
  });

  it('an empty place of birth keeps the one from the identity document', async () => {
    const { user } = await approvedUser();
    const before = (await get('/api/registration/open', user.token)).json().payload.profile;
    const res = await address(user.token, { place_of_birth: '' });
    expect(res.json().payload.profile).toMatchObject({ place_of_birth: before.place_of_birth, personal_code: before.personal_code, first_name: 'Ana' });
  });

  it('refuses a city outside the county, unknown ids and missing fields, changing nothing', async () => {
    const user = await registerUser(app);
    const cluj = await place(app, 'Cluj', 'Cluj-Napoca');
    const iasi = await place(app, 'Iași', 'Iași');
    const outside = await address(user.token, { county_id: cluj.county_id, city_id: iasi.city_id });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().payload).toEqual({ city_id: ['Localitatea aleasă nu este în județul ales.'] });
    const unknown = await address(user.token, { county_id: 999, city_id: 999999 });
    expect(unknown.json().payload).toEqual({ county_id: ['Județul ales nu există.'], city_id: ['Localitatea aleasă nu există.'] });
    const missing = await post('/api/registration/update-user-info', user.token, { first_name: 'Ana', county_id: null, street: '  ', postal_code: '12' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({
      last_name: ['Câmpul este obligatoriu.'],
      county_id: ['Alege județul.'],
      city_id: ['Alege localitatea.'],
      number: ['Câmpul este obligatoriu.'],
      postal_code: ['Codul poștal are 6 cifre.'],
    });
    const blank = await address(user.token, { street: '   ' });
    expect(blank.json().payload).toEqual({ street: ['Câmpul este obligatoriu.'] });
    expect((await get('/api/registration/open', user.token)).json().payload.profile).toEqual({});
    expect((await app.inject({ method: 'POST', url: '/api/registration/update-user-info', payload: {} })).statusCode).toBe(401);
  });
});

describe('confirming the identity step', () => {
  const confirm = (token: string, url: string, step: string) => post(url, token, { verified: true, current_step_identifier: step });

  it('new flow: refused before approval and without an address, accepted after', async () => {
    const user = await registerUser(app);
    const step = 'requesting-company-step-1';
    await placeAtStep(app, user, step);
    const unflagged = await post('/api/registration/confirm/identity-file', user.token, { current_step_identifier: step });
    expect(unflagged.statusCode).toBe(422);
    expect(unflagged.json().payload).toEqual({ verified: ['Câmpul este obligatoriu.'] });

    const none = await confirm(user.token, '/api/registration/confirm/identity-file', step);
    expect(none.statusCode).toBe(422);
    expect(none.json().payload).toEqual({ verified: ['Încarcă cele trei fotografii și trimite-le pentru verificare.'] });

    const delayed = await testApp({ idvSimulatorDelayMs: 60_000 });
    try {
      // "fara-adresa": the simulator reads no address from the card.
      const { session } = await sessionWithUploads(delayed, user.token, ['fata-fara-adresa.png', 'spate.jpg', 'selfie.webp']);
      await submit(delayed, user.token, session.session_id);
      const waiting = await confirm(user.token, '/api/registration/confirm/identity-file', step);
      expect(waiting.json().payload).toEqual({ verified: ['Verificarea identității este în curs. Te rugăm să aștepți rezultatul.'] });
      // Approved (the instant simulator decides the same session) but without an address.
      expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 2 });
    } finally {
      await delayed.close();
    }
    const noAddress = await confirm(user.token, '/api/registration/confirm/identity-file', step);
    expect(noAddress.json().payload).toEqual({ verified: ['Avem nevoie de adresa ta de domiciliu'] });
    expect((await get('/api/registration/open', user.token)).json().payload.step).toBe(step);

    await address(user.token);
    const ok = await confirm(user.token, '/api/registration/confirm/identity-file', step);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.step).toBe('requesting-company-step-2');
  });

  it('existing flow: a rejection with all three photos and a complete profile counts as approved', async () => {
    const user = await registerUser(app, { type: 1 });
    const step = 'existing-company-step-5';
    await placeAtStep(app, user, step);
    const { session } = await sessionWithUploads(app, user.token, ['fata.png', 'spate.png', 'reject-selfie.png']);
    await submit(app, user.token, session.session_id);
    expect((await verify(app, user.token, session)).json().payload).toEqual({ status: 3 });
    expect((await get(`/api/veriff/get-veriff-error?${query(session)}`, user.token)).json().payload).toEqual({
      code: 103,
      translated_reason: reason(103),
    });
    const incomplete = await confirm(user.token, '/api/registration/existing/confirm/identity-file', step);
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json().payload).toEqual({ verified: ['Avem nevoie de adresa ta de domiciliu'] });
    await address(user.token, { place_of_birth: 'Mun. Turda, jud. Cluj' });
    const ok = await confirm(user.token, '/api/registration/existing/confirm/identity-file', step);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.step).toBe('existing-company-step-7');
  });

  it('a rejection with a deleted photo set is refused', async () => {
    const user = await registerUser(app, { type: 1 });
    const step = 'existing-company-step-5';
    await placeAtStep(app, user, step);
    await address(user.token, { place_of_birth: 'Mun. Turda, jud. Cluj' });
    const { session } = await sessionWithUploads(app, user.token, ['reject.png', 'spate.png', 'selfie.png']);
    await submit(app, user.token, session.session_id);
    await verify(app, user.token, session);
    await post('/api/registration/existing/delete/identity-document', user.token);
    const res = await confirm(user.token, '/api/registration/existing/confirm/identity-file', step);
    expect(res.json().payload).toEqual({ verified: ['Încarcă cele trei fotografii și trimite-le pentru verificare.'] });
  });
});
