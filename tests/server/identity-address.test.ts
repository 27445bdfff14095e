import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { placeAtStep, registerUser, testApp } from './helpers';
import { place, sessionWithUploads, submit, verify } from './identity-helpers';
import { query, reason, identityApp } from './identity-setup';

/** The applicant's address (update-user-info) and the identity step's confirmation. */

let app: FastifyInstance;
const { get, post, approvedUser, address } = identityApp((made) => (app = made));

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
