import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { isValidCnp } from '../../server/identity/romanian-person';
import { auth, placeAtStep, registerUser } from './helpers';
import { PNG, createSession, lastSession, sessionWithUploads, submit, upload, verify } from './identity-helpers';
import { query, reason, identityApp } from './identity-setup';

/** The identity session decided by the simulator, read back and deleted. */

let app: FastifyInstance;
const { get, post, storedFiles, address } = identityApp((made) => (app = made));

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
