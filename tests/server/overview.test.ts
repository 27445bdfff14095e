import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { caenId, CURRENT_CAEN_REVISION, PREVIOUS_CAEN_REVISION } from '../../server/db/caen';
import { caenCodes, registrationRequests } from '../../server/db/schema';
import { cnpProblem } from '../../server/registration/overview';
import { isValidCnp } from '../../server/identity/romanian-person';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser, requestRowOf } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const STEP = 'requesting-company-step-7';
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });
const post = (url: string, token: string, payload: object = {}) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const update = (user: RegisteredUser, payload: object) => post('/api/registration/update/form-data', user.token, payload);

/** A valid CNP: a man born on 1990-05-15 in Cluj (check digit computed). */
const CNP = '1900515125806';

/** The id of a CAEN Rev.3 class (ids carry the revision: server/db/caen.ts). */
async function idOf(code: string): Promise<number> {
  const [row] = await app.db.select().from(caenCodes).where(and(eq(caenCodes.code, code), eq(caenCodes.revision, CURRENT_CAEN_REVISION)));
  return row.id;
}
const rev3 = (code: string) => caenId(CURRENT_CAEN_REVISION, code);
const rev2 = (code: string) => caenId(PREVIOUS_CAEN_REVISION, code);

const requestRow = (user: RegisteredUser) => requestRowOf(app, user);

async function atOverview(options: { partner?: string; formData?: Record<string, unknown>; profile?: Record<string, unknown> } = {}) {
  const user = await registerUser(app, { partner: options.partner });
  await placeAtStep(app, user, STEP, { activity: 'design-grafic', ...options.formData });
  const row = await requestRow(user);
  await app.db
    .update(registrationRequests)
    .set({ profile: { first_name: 'Ana', last_name: 'Popescu', personal_code: CNP, ...options.profile } })
    .where(eq(registrationRequests.id, row.id));
  return user;
}

describe('CNP check', () => {
  it('takes a valid CNP and rejects bad length, date and check digit', () => {
    expect(cnpProblem(CNP)).toBeNull();
    expect(cnpProblem('6040229400013')).toBeNull(); // 2004-02-29, a leap day
    expect(cnpProblem('123')).toBe('CNP-ul trebuie să aibă exact 13 cifre.');
    expect(cnpProblem('1901315125801')).toBe('CNP-ul nu conține o dată de naștere validă.');
    expect(cnpProblem('1900230125802')).toBe('CNP-ul nu conține o dată de naștere validă.');
    expect(cnpProblem('1900515125807')).toBe('CNP-ul nu este valid: cifra de control nu corespunde.');
  });
});

describe('GET /api/nomenclature/code/index/:offset/:size', () => {
  it('holds the 651 CAEN Rev.3 classes and pages them by 25 without sign-in', async () => {
    const res = await get('/api/nomenclature/code/index/0/25');
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json().payload;
    expect(total).toBe(651);
    expect(data).toHaveLength(25);
    expect(data[0]).toEqual({ id: rev3('0111'), code: '0111', name: expect.stringContaining('Cultivarea cerealelor') });
    const [row] = await app.db.select().from(caenCodes).where(eq(caenCodes.id, rev3('6210')));
    expect(row).toMatchObject({ section: 'K', revision: 'CAEN Rev.3', name: 'Activități de realizare a soft-ului la comandă (software orientat client)' });
    // Rev.2 stays in the database for what requests stored, under other ids, and is never offered.
    const [old] = await app.db.select().from(caenCodes).where(eq(caenCodes.id, rev2('6201')));
    expect(old).toMatchObject({ code: '6201', revision: 'CAEN Rev.2' });
  });

  it('finds by code prefix and by name, ignoring diacritics and case', async () => {
    const byCode = (await get('/api/nomenclature/code/index/0/25?search_term=621')).json().payload;
    expect(byCode.data.map((c: { code: string }) => c.code)).toEqual(['6210']);
    const byName = (await get(`/api/nomenclature/code/index/0/25?search_term=${encodeURIComponent('ACTIVITATI DE CONTABILITATE')}`)).json().payload;
    expect(byName.data.map((c: { code: string }) => c.code)).toEqual(['6920']);
    const accented = (await get(`/api/nomenclature/code/index/0/25?search_term=${encodeURIComponent('ȘOFT-ului')}`)).json().payload;
    expect(accented.data.map((c: { code: string }) => c.code)).toEqual(['6210']);
    const cedilla = (await get(`/api/nomenclature/code/index/0/25?search_term=${encodeURIComponent('consultanţă în tehnologia informaţiei')}`)).json().payload;
    expect(cedilla.data.map((c: { code: string }) => c.code)).toEqual(['6220']);
  });

  it('finds the Rev.3 classes that replace an old Rev.2 code, saying which code they replace', async () => {
    const old = (await get('/api/nomenclature/code/index/0/25?search_term=6201')).json().payload;
    expect(old.data).toEqual([{ id: rev3('6210'), code: '6210', name: 'Activități de realizare a soft-ului la comandă (software orientat client)', replaces: ['6201'] }]);
    const both = (await get('/api/nomenclature/code/index/0/25?search_term=620')).json().payload;
    expect(both.data.map((c: { code: string; replaces?: string[] }) => [c.code, c.replaces])).toEqual([
      ['6210', ['6201']],
      ['6220', ['6202', '6203']],
      ['6290', ['6209']],
    ]);
    // 4791 is a class of both revisions with other meanings: the Rev.3 class itself, and the classes Rev.2 4791 went to.
    const split = (await get('/api/nomenclature/code/index/0/100?search_term=4791')).json().payload;
    const rev3Itself = split.data.find((c: { code: string }) => c.code === '4791');
    expect(rev3Itself.name).toMatch(/intermedier/i);
    expect(split.data.find((c: { code: string }) => c.code === '4711').replaces).toEqual(['4791']);
    expect(split.total).toBeGreaterThan(20);
  });

  it('needs at least 3 characters of search and a page size of at most 100', async () => {
    const short = await get('/api/nomenclature/code/index/0/25?search_term=62');
    expect(short.statusCode).toBe(422);
    expect(short.json().payload.search_term).toEqual(['Introdu cel puțin 3 caractere.']);
    expect((await get('/api/nomenclature/code/index/0/500')).statusCode).toBe(422);
    const paged = (await get('/api/nomenclature/code/index/25/25?search_term=comert')).json().payload;
    expect(paged.total).toBeGreaterThan(50);
    expect(paged.data).toHaveLength(25);
  });
});

describe('POST /api/registration/update/form-data', () => {
  it('saves names, CNP and codes at step 7 and answers the request with the success message', async () => {
    const user = await atOverview();
    const codes = [await idOf('7412'), await idOf('7311')];
    const res = await update(user, { last_name: ' Ionescu ', first_name: 'Maria-Ioana', personal_code: '2850101400019', codes });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Informațiile au fost modificate.');
    const payload = res.json().payload;
    expect(payload.step).toBe(STEP);
    expect(payload.profile).toMatchObject({ last_name: 'Ionescu', first_name: 'Maria-Ioana', personal_code: '2850101400019' });
    expect(payload.form_data.codes).toEqual(codes);
    expect(payload.codes).toEqual([
      { id: codes[0], code: '7412', name: 'Design grafic și activități de comunicare vizuală', is_primary: 1, revision: 'CAEN Rev.3' },
      { id: codes[1], code: '7311', name: 'Activități ale agențiilor de publicitate', is_primary: 0, revision: 'CAEN Rev.3' },
    ]);
    const overview = (await get('/api/registration/overview', user.token)).json().payload;
    expect(overview).toMatchObject({ company_name: null, email: user.email, phone: '0712345678', editable: true });
    expect(overview.codes.map((c: { code: string }) => c.code)).toEqual(['7412', '7311']);
  });

  it('accepts the CNP of a foreign citizen (9) and of a foreign resident born in the 2000s (7), as the identity check does', async () => {
    for (const cnp of ['9850101400011', '7000229400012']) {
      const user = await atOverview();
      const res = await update(user, { field: 'personal_code', value: cnp });
      expect(res.statusCode, cnp).toBe(200);
      expect(res.json().payload.profile.personal_code).toBe(cnp);
      expect(isValidCnp(cnp)).toBe(true);
    }
  });

  it('takes the spec form { field, value } and answers errors under value', async () => {
    const user = await atOverview();
    const ok = await update(user, { field: 'last_name', value: 'Georgescu' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.profile.last_name).toBe('Georgescu');
    const bad = await update(user, { field: 'personal_code', value: '1900515125807' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      message: 'CNP-ul nu este valid: cifra de control nu corespunde.',
      payload: { value: ['CNP-ul nu este valid: cifra de control nu corespunde.'] },
    });
  });

  it('rejects each bad field with a Romanian message and changes nothing', async () => {
    const user = await atOverview();
    const before = await requestRow(user);
    const cases: Array<[object, string, string]> = [
      [{ last_name: '  ' }, 'last_name', 'Numele este obligatoriu.'],
      [{ first_name: 'Ana3' }, 'first_name', 'Poate conține doar litere, spații, cratime și apostrof (cel mult 60 de caractere).'],
      [{ personal_code: '19005151258' }, 'personal_code', 'CNP-ul trebuie să aibă exact 13 cifre.'],
      [{ personal_code: '1901315125801' }, 'personal_code', 'CNP-ul nu conține o dată de naștere validă.'],
      [{ personal_code: '1900515125807' }, 'personal_code', 'CNP-ul nu este valid: cifra de control nu corespunde.'],
      [{ codes: ['6210', '6220', '6290', '7311', '7412', '7420'].map(rev3) }, 'codes', 'Poți alege cel mult 5 coduri CAEN.'],
      [{ codes: [rev3('6210'), rev3('6210')] }, 'codes', 'Un cod CAEN nu poate fi ales de două ori.'],
      [{ codes: [rev3('6210'), rev3('9998')] }, 'codes', 'Codul CAEN ales nu există.'],
      // A Rev.2 code is not a choice any more, even where Rev.3 has the same four digits.
      [{ codes: [rev2('6201')] }, 'codes', 'Codul CAEN ales nu există.'],
      [{ codes: [6210] }, 'codes', 'Codul CAEN ales nu există.'],
      [{ codes: [] }, 'codes', 'Alege codul CAEN principal.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await update(user, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().payload[field], JSON.stringify(body)).toEqual([message]);
      expect(res.json().message).toBe(message);
    }
    expect(await requestRow(user)).toMatchObject({ profile: before.profile, formData: before.formData, version: before.version });
  });

  it('keeps the primary code: a saved list cannot become empty', async () => {
    const user = await atOverview({ formData: { codes: [rev3('7412')] } });
    const res = await update(user, { codes: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.codes).toEqual(['Codul CAEN principal nu poate fi șters; îl poți înlocui cu altul.']);
  });

  it('keeps the credit partner codes 8291 and 6619 first and locked', async () => {
    const user = await atOverview({ partner: 'icredit' });
    const [c8291, c6619, c7022] = [await idOf('8291'), await idOf('6619'), await idOf('7020')];
    for (const codes of [[c7022], [c6619, c8291], [c8291, c7022, c6619], [c8291]]) {
      const res = await update(user, { codes });
      expect(res.statusCode, JSON.stringify(codes)).toBe(422);
      expect(res.json().payload.codes).toEqual(['Codurile 8291 și 6619 sunt stabilite de partener și nu pot fi modificate.']);
    }
    const ok = await update(user, { codes: [c8291, c6619, c7022] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.codes.map((c: { code: string }) => c.code)).toEqual(['8291', '6619', '7020']);
  });

  it('refuses codes when operators set them (activity unknown)', async () => {
    const user = await atOverview({ formData: { activity: 'question-mark', activity_details: 'Restaurare de viori' } });
    const res = await update(user, { codes: [rev3('7412')] });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.codes).toEqual(['Codurile CAEN vor fi stabilite de colegii noștri pe baza activității descrise.']);
    expect((await update(user, { first_name: 'Ion' })).statusCode).toBe(200);
  });

  it('needs the new-company flow, and changes only the caller’s request', async () => {
    const ana = await atOverview();
    const other = await atOverview();
    const existing = await registerUser(app, { type: 1 });
    expect((await update(existing, { first_name: 'Ion' })).statusCode).toBe(403);
    expect((await update(other, { first_name: 'Vasile' })).statusCode).toBe(200);
    expect((await requestRow(ana)).profile.first_name).toBe('Ana');
    expect((await requestRow(other)).profile.first_name).toBe('Vasile');
  });

  it('answers 409 with the request when it is not at step 7', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, 'requesting-company-step-6');
    const res = await update(user, { first_name: 'Ion' });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe('requesting-company-step-6');
  });
});

describe('POST /api/registration/send', () => {
  const send = (user: RegisteredUser, body: object = { address_type: 1 }) => post('/api/registration/send', user.token, { current_step_identifier: STEP, ...body });

  it('submits with the office at the product, a primary code and a complete profile: status submitted, next step', async () => {
    const user = await atOverview({ formData: { codes: [rev3('7412'), rev3('7311')] } });
    const res = await send(user);
    expect(res.statusCode, res.body).toBe(200);
    const payload = res.json().payload;
    expect(payload.status).toBe('submitted');
    expect(payload.step).toBe('requesting-company-step-8');
    expect(payload.form_data).toMatchObject({ address_type: 1, codes: [rev3('7412'), rev3('7311')], submitted_at: expect.any(String) });
    expect((await requestRow(user)).status).toBe('submitted');
    // A second press (stale tab) changes nothing.
    expect((await send(user)).statusCode).toBe(409);
  });

  it('needs address_type 1 or 2, a primary code and the profile', async () => {
    const user = await atOverview({ profile: { personal_code: '1900515125807', first_name: '' } });
    const badType = await send(user, { address_type: 3 });
    expect(badType.statusCode).toBe(422);
    expect(badType.json().payload.address_type).toBeDefined();
    const res = await send(user);
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({
      first_name: ['Prenumele este obligatoriu.'],
      personal_code: ['CNP-ul nu este valid: cifra de control nu corespunde.'],
      codes: ['Alege codul CAEN principal.'],
    });
    expect((await requestRow(user)).step).toBe(STEP);
  });

  it('does not ask for codes when operators set them (activity unknown)', async () => {
    const user = await atOverview({ formData: { activity: 'question-mark', activity_details: 'Restaurare de viori' } });
    const res = await send(user, { address_type: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payload.status).toBe('submitted');
  });

  it('under the credit partner needs the locked codes first', async () => {
    const user = await atOverview({ partner: 'icredit', formData: { codes: [rev3('7412')] } });
    const res = await send(user);
    expect(res.statusCode).toBe(422);
    expect(res.json().payload.codes).toEqual(['Codurile 8291 și 6619 sunt stabilite de partener și nu pot fi modificate.']);
  });

  it('office at home: leaving marks the request lost with sediu-la-client', async () => {
    const user = await atOverview();
    const res = await post('/api/mark-as-lost', user.token, { reason_identifier: 'sediu-la-client' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'lost', lost_reason: 'sediu-la-client', step: STEP });
  });
});
