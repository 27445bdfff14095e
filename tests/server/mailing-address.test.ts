import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { mailingAddresses } from '../../server/db/schema';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';
import { place } from './identity-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });
const post = (url: string, token: string, payload: object = {}) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const openRequest = async (user: RegisteredUser) => (await get('/api/registration/open', user.token)).json().payload;

const STEP = 'requesting-company-step-6';
const BUCURESTI = 40;
const CLUJ = 12;

async function validAddress(overrides: Record<string, unknown> = {}) {
  return {
    contact_first_name: '  Ana ',
    contact_last_name: 'Pop',
    contact_phone: '0722 123 456',
    ...(await place(app, 'Cluj', 'Cluj-Napoca')),
    street: 'Str. Memorandumului',
    number: '28',
    building: 'A2',
    entrance: '',
    floor: '3',
    apartment: '12',
    postal_code: '400114',
    ...overrides,
  };
}

const saveAddress = async (user: RegisteredUser, overrides: Record<string, unknown> = {}) => post('/api/mailing-address', user.token, await validAddress(overrides));

describe('GET /api/nomenclature/icredit-office/index', () => {
  it('lists the active branch offices of a county, in order, without sign-in', async () => {
    const res = await get(`/api/nomenclature/icredit-office/index?county_id=${CLUJ}`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json().payload;
    expect(data.map((o: { id: number }) => o.id)).toEqual([5, 6, 7]);
    expect(data[0]).toEqual({
      id: 5,
      county_id: CLUJ,
      name: 'Agenția Centru',
      address: 'Str. Memorandumului nr. 21, Cluj-Napoca',
      name_formatted: 'iCredit Cluj-Napoca – Agenția Centru',
    });
  });

  it('has offices in București, Cluj, Iași, Timiș, Constanța and Brașov; a closed office is not offered', async () => {
    for (const county of [BUCURESTI, CLUJ, 22, 35, 13, 8]) {
      const { data } = (await get(`/api/nomenclature/icredit-office/index?county_id=${county}`)).json().payload;
      expect(data.length, `county ${county}`).toBeGreaterThan(0);
      expect(data.every((o: { county_id: number }) => o.county_id === county)).toBe(true);
    }
    const bucuresti = (await get(`/api/nomenclature/icredit-office/index?county_id=${BUCURESTI}`)).json().payload.data;
    expect(bucuresti.map((o: { id: number }) => o.id)).toEqual([1, 2, 3, 4]);
  });

  it('answers an empty list for a county without offices', async () => {
    const res = await get('/api/nomenclature/icredit-office/index?county_id=1');
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toEqual({ data: [] });
  });

  it('needs an existing county', async () => {
    const missing = await get('/api/nomenclature/icredit-office/index');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({ county_id: ['Alege mai întâi județul.'] });
    const unknown = await get('/api/nomenclature/icredit-office/index?county_id=99');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().payload).toEqual({ county_id: ['Județul ales nu există.'] });
    const text = await get('/api/nomenclature/icredit-office/index?county_id=cluj');
    expect(text.statusCode).toBe(422);
    expect(Object.keys(text.json().payload)).toEqual(['county_id']);
  });
});

describe('POST /api/mailing-address', () => {
  it('saves the address and answers the request with it (names of county and city included)', async () => {
    const user = await registerUser(app);
    expect((await openRequest(user)).mailing_address).toBeNull();
    const ids = await place(app, 'Cluj', 'Cluj-Napoca');
    const res = await saveAddress(user);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Adresa de corespondență a fost salvată.');
    const expected = {
      contact_first_name: 'Ana',
      contact_last_name: 'Pop',
      contact_phone: '0722123456',
      county_id: ids.county_id,
      city_id: ids.city_id,
      county: 'Cluj',
      city: 'Cluj-Napoca',
      postal_code: '400114',
      street: 'Str. Memorandumului',
      number: '28',
      building: 'A2',
      entrance: null,
      floor: '3',
      apartment: '12',
    };
    expect(res.json().payload).toMatchObject({ registration_type: 2, mailing_address: expected });
    expect((await openRequest(user)).mailing_address).toEqual(expected);
  });

  it('keeps one address per user: a second save replaces it; optional fields may be left out', async () => {
    const user = await registerUser(app);
    await saveAddress(user);
    const turda = await place(app, 'Cluj', 'Turda');
    const res = await post('/api/mailing-address', user.token, {
      contact_first_name: 'Ion',
      contact_last_name: 'Ionescu',
      ...turda,
      street: 'Republicii',
      number: '10',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.mailing_address).toEqual({
      contact_first_name: 'Ion',
      contact_last_name: 'Ionescu',
      contact_phone: null,
      ...turda,
      county: 'Cluj',
      city: 'Turda',
      postal_code: null,
      street: 'Republicii',
      number: '10',
      building: null,
      entrance: null,
      floor: null,
      apartment: null,
    });
    const rows = await app.db.select().from(mailingAddresses).where(eq(mailingAddresses.userId, user.user.id));
    expect(rows).toHaveLength(1);
  });

  it('ignores fields it does not know (no saving for another user)', async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    const res = await saveAddress(other, { user_id: owner.user.id, id: 1 });
    expect(res.statusCode).toBe(200);
    expect((await openRequest(owner)).mailing_address).toBeNull();
    expect((await openRequest(other)).mailing_address).toMatchObject({ contact_first_name: 'Ana' });
  });

  const BAD: Array<[string, Record<string, unknown>, Record<string, string[]>]> = [
    ['first name missing', { contact_first_name: undefined }, { contact_first_name: ['Câmpul este obligatoriu.'] }],
    ['first name blank', { contact_first_name: '   ' }, { contact_first_name: ['Câmpul este obligatoriu.'] }],
    ['last name blank', { contact_last_name: '' }, { contact_last_name: ['Câmpul este obligatoriu.'] }],
    ['phone not 07xxxxxxxx', { contact_phone: '0212345678' }, { contact_phone: ['Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.'] }],
    ['phone too short', { contact_phone: '07221' }, { contact_phone: ['Numărul de telefon trebuie să aibă formatul 07xxxxxxxx.'] }],
    ['postal code of 5 digits', { postal_code: '40011' }, { postal_code: ['Codul poștal are 6 cifre.'] }],
    ['postal code with letters', { postal_code: '40011a' }, { postal_code: ['Codul poștal are 6 cifre.'] }],
    ['county missing', { county_id: undefined }, { county_id: ['Alege județul.'] }],
    ['county null', { county_id: null }, { county_id: ['Alege județul.'] }],
    ['county unknown', { county_id: 99 }, { county_id: ['Județul ales nu există.'] }],
    ['city unknown', { city_id: 99_999_999 }, { city_id: ['Localitatea aleasă nu există.'] }],
    ['city missing', { city_id: undefined }, { city_id: ['Alege localitatea.'] }],
    ['street blank', { street: ' ' }, { street: ['Câmpul este obligatoriu.'] }],
    ['number missing', { number: undefined }, { number: ['Câmpul este obligatoriu.'] }],
    ['street too long', { street: 'x'.repeat(151) }, { street: ['Câmpul poate avea cel mult 150 caractere.'] }],
  ];

  for (const [name, overrides, errors] of BAD) {
    it(`422 and nothing changed: ${name}`, async () => {
      const user = await registerUser(app);
      await saveAddress(user);
      const before = (await openRequest(user)).mailing_address;
      const body = await validAddress({ contact_first_name: 'Maria', street: 'Dorobanților', ...overrides });
      for (const [key, value] of Object.entries(body)) if (value === undefined) delete (body as Record<string, unknown>)[key];
      const res = await post('/api/mailing-address', user.token, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toEqual(errors);
      expect((await openRequest(user)).mailing_address).toEqual(before);
    });
  }

  it('422 when the city is not in the county (and nothing saved)', async () => {
    const user = await registerUser(app);
    const turda = await place(app, 'Cluj', 'Turda');
    const res = await saveAddress(user, { county_id: BUCURESTI, city_id: turda.city_id });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ city_id: ['Localitatea aleasă nu este în județul ales.'] });
    expect((await openRequest(user)).mailing_address).toBeNull();
  });

  it('reports every bad field at once', async () => {
    const user = await registerUser(app);
    const res = await saveAddress(user, { contact_last_name: ' ', contact_phone: '123', postal_code: '1', county_id: 99 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().payload).sort()).toEqual(['contact_last_name', 'contact_phone', 'county_id', 'postal_code']);
  });

  it("another user's token neither reads nor changes the address", async () => {
    const owner = await registerUser(app);
    const other = await registerUser(app);
    await saveAddress(owner);
    expect((await openRequest(other)).mailing_address).toBeNull();
    const res = await saveAddress(other, { contact_first_name: 'Intrus', street: 'Altă stradă' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.mailing_address).toMatchObject({ contact_first_name: 'Intrus' });
    expect((await openRequest(owner)).mailing_address).toMatchObject({ contact_first_name: 'Ana', street: 'Str. Memorandumului' });
  });

  it('works for the existing-company flow too (its own request)', async () => {
    const user = await registerUser(app, { type: 1 });
    const res = await saveAddress(user);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ registration_type: 1, mailing_address: { city: 'Cluj-Napoca' } });
  });
});

describe('collect/mailing-address-type (flows/new-pfa.json step 6)', () => {
  const submit = (user: RegisteredUser, type: string) =>
    post('/api/registration/collect/mailing-address-type', user.token, { mailing_address_type: type, current_step_identifier: STEP });

  it('custom_address needs a saved correspondence address', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    const refused = await submit(user, 'custom_address');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().payload).toEqual({ mailing_address_type: ['Salvează mai întâi adresa de corespondență.'] });
    expect(await openRequest(user)).toMatchObject({ step: STEP, form_data: {} });

    await saveAddress(user);
    const res = await submit(user, 'custom_address');
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ step: 'requesting-company-step-7', form_data: { mailing_address_type: 'custom_address' } });
  });

  it('id_card_address needs the home address of the profile', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    const refused = await submit(user, 'id_card_address');
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().payload)).toEqual(['mailing_address_type']);

    const home = await post('/api/registration/update-user-info', user.token, {
      first_name: 'Ana',
      last_name: 'Pop',
      ...(await place(app, 'Cluj', 'Cluj-Napoca')),
      street: 'Memorandumului',
      number: '28',
    });
    expect(home.statusCode).toBe(200);
    const res = await submit(user, 'id_card_address');
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ step: 'requesting-company-step-7', form_data: { mailing_address_type: 'id_card_address' } });
  });

  it('refuses another value and a missing choice', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    for (const body of [{ mailing_address_type: 'sediu' }, {}]) {
      const res = await post('/api/registration/collect/mailing-address-type', user.token, { ...body, current_step_identifier: STEP });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().payload)).toEqual(['mailing_address_type']);
    }
  });

  it('steps/next checks the stored choice again', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP, { mailing_address_type: 'custom_address' });
    const refused = await post('/api/registration/steps/next', user.token, { current_step_identifier: STEP });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().payload)).toEqual(['mailing_address_type']);
    await saveAddress(user);
    const res = await post('/api/registration/steps/next', user.token, { current_step_identifier: STEP });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.step).toBe('requesting-company-step-7');
  });
});

describe('collect/icredit-office (credit partner variant of step 6)', () => {
  const submit = (user: RegisteredUser, body: Record<string, unknown>) =>
    post('/api/registration/collect/icredit-office', user.token, { ...body, current_step_identifier: STEP });

  async function creditUser() {
    const user = await registerUser(app, { partner: 'icredit' });
    await placeAtStep(app, user, STEP);
    return user;
  }

  it('keeps the office with its county and address', async () => {
    const user = await creditUser();
    const res = await submit(user, { icredit_county_id: CLUJ, icredit_office_id: 6 });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({
      step: 'requesting-company-step-7',
      form_data: { icredit_office_id: 6, icredit_county_id: CLUJ, icredit_address: 'Calea Florești nr. 58, Cluj-Napoca' },
    });
  });

  it('fills the county from the office when none is sent', async () => {
    const user = await creditUser();
    const res = await submit(user, { icredit_office_id: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.form_data).toMatchObject({ icredit_office_id: 1, icredit_county_id: BUCURESTI });
  });

  it('422 on icredit_office_id for an unknown, closed or other-county office, and a missing one; nothing changes', async () => {
    const user = await creditUser();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ icredit_county_id: CLUJ, icredit_office_id: 9999 }, 'Alege o sucursală din listă.'],
      [{ icredit_county_id: BUCURESTI, icredit_office_id: 22 }, 'Alege o sucursală din listă.'],
      [{ icredit_county_id: BUCURESTI, icredit_office_id: 5 }, 'Sucursala aleasă nu este în județul ales.'],
      [{ icredit_county_id: CLUJ }, 'Câmpul este obligatoriu.'],
    ];
    for (const [body, message] of cases) {
      const res = await submit(user, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().payload).toEqual({ icredit_office_id: [message] });
    }
    expect(await openRequest(user)).toMatchObject({ step: STEP, form_data: {} });
  });

  it('is not the step of an unaffiliated user (409), whose step 6 is the address choice', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, STEP);
    const res = await submit(user, { icredit_office_id: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe(STEP);
  });
});
