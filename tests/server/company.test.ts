import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { LocalCompanyRegistry } from '../../server/company/local';
import { CompanyLookupUnavailableError, type CompanyLookup, type CompanyRecord } from '../../server/company/types';
import type { CompaniesFile } from '../../server/db/seed';
import { companies } from '../../server/db/schema';
import { hasValidCheckDigit } from '../../src/core/fiscal-code';
import { auth, placeAtStep, registerUser, testApp, testConfig, testDatabase, type RegisteredUser, requestRowOf as requestRow } from './helpers';
import { anafPfa, anafSrl, FakeAnaf } from './fake-anaf';

const STEP_2 = 'existing-company-step-2';
const STEP_3 = 'existing-company-step-3';
const STEP_4 = 'existing-company-step-4';
const COLLECT = '/api/registration/existing/collect/company';
const CONFIRM = '/api/registration/existing/confirm/company';
const OPEN = '/api/registration/existing/open';
const PREVIOUS = '/api/registration/existing/steps/previous';
const NEXT = '/api/registration/existing/steps/next';

const MESSAGES = {
  format: 'Codul fiscal (CUI/CIF) are între 2 și 10 cifre, cu sau fără „RO” în față.',
  checkDigit: 'Cifra de control a CUI-ului nu este corectă. Verifică dacă ai scris codul fiscal corect.',
  notFound: 'Nu am găsit nicio firmă cu acest CUI. Verifică dacă l-ai scris corect.',
  notPfa: 'Ghișeu este doar pentru PFA-uri (persoane fizice autorizate), iar acest CUI aparține unei firme de tip SRL (ALFA CONTABIL SOFT SRL).',
  unavailable: 'Serviciul ANAF nu răspunde acum. Te rugăm să încerci din nou în câteva minute.',
  noCompany: 'Nu am găsit încă firma ta. Întoarce-te la pasul anterior și introdu codul fiscal.',
};

const POPESCU: CompanyRecord = {
  fiscal_code: '42157397',
  name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ',
  address: 'JUD. CLUJ, MUN. CLUJ-NAPOCA, STR. MEMORANDUMULUI, NR. 12, AP. 4',
  registration_number: 'F12/345/2020',
  legal_form: 'PFA',
  is_pfa: true,
  county: 'Cluj',
  city: 'Cluj-Napoca',
  caen_code: '6201',
};
/** POPESCU as the request's `company` answers it: with its CAEN Rev.2 code's Rev.3 correspondence (tests/server/company-caen.test.ts has the rest). */
const POPESCU_ANSWER = { ...POPESCU, caen: expect.objectContaining({ code: '6201', status: 'previous', equivalents: [expect.objectContaining({ code: '6210' })] }) };

/** The local registry, counting its lookups; `down` makes it fail like ANAF when it does not answer. */
class CountingLookup implements CompanyLookup {
  readonly name = 'local' as const;
  readonly calls: string[] = [];
  down = false;
  constructor(private readonly inner: CompanyLookup) {}
  async lookup(cui: string): Promise<CompanyRecord | null> {
    this.calls.push(cui);
    if (this.down) throw new CompanyLookupUnavailableError(undefined, 'test: down');
    return this.inner.lookup(cui);
  }
}

describe('existing PFA steps 2 and 3: fiscal code lookup and "Te-am găsit"', () => {
  let app: FastifyInstance;
  let lookups: CountingLookup;
  beforeAll(async () => {
    const database = await testDatabase();
    lookups = new CountingLookup(new LocalCompanyRegistry(database.db));
    app = await buildApp(testConfig(), { database, companies: lookups, checkAnswers: true });
    await app.ready();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    lookups.calls.length = 0;
    lookups.down = false;
  });

  const post = (url: string, payload: object, token?: string) => app.inject({ method: 'POST', url, payload, headers: token ? auth(token) : {} });
  const collect = (user: RegisteredUser, fiscalCode: unknown, step = STEP_2) => post(COLLECT, { fiscal_code: fiscalCode, current_step_identifier: step }, user.token);

  async function atStep2() {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, STEP_2);
    return user;
  }

  /** A refusal on the field: 422, the message under fiscal_code, and the request as it was. */
  async function expectRefused(user: RegisteredUser, fiscalCode: unknown, message: string | RegExp) {
    const before = await requestRow(app, user);
    const res = await collect(user, fiscalCode);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    if (typeof message === 'string') {
      expect(body.payload).toEqual({ fiscal_code: [message] });
      expect(body.message).toBe(message);
    } else {
      expect(body.payload.fiscal_code[0]).toMatch(message);
    }
    const after = await requestRow(app, user);
    expect(after.version).toBe(before.version);
    expect(after.step).toBe(STEP_2);
    expect(after.formData).toEqual(before.formData);
    return body;
  }

  it('a valid CUI of a PFA: the company is kept in form_data and as the request’s company, and the request moves to step 3', async () => {
    const user = await atStep2();
    expect((await app.inject({ method: 'GET', url: OPEN, headers: auth(user.token) })).json().payload.company).toBeNull();

    const res = await collect(user, '42157397');
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.step).toBe(STEP_3);
    expect(payload.form_data).toMatchObject({ fiscal_code: '42157397', company: POPESCU, company_confirmed_at: null });
    expect(payload.company).toEqual(POPESCU_ANSWER);
    expect(lookups.calls).toEqual(['42157397']);

    const open = (await app.inject({ method: 'GET', url: OPEN, headers: auth(user.token) })).json().payload;
    expect(open.step).toBe(STEP_3);
    expect(open.company).toEqual(POPESCU_ANSWER);
  });

  it('normalises RO prefixes and blanks before the lookup and keeps the digits', async () => {
    for (const written of ['RO46720190', ' ro 46720190 ', 'Ro46720190']) {
      const user = await atStep2();
      lookups.calls.length = 0;
      const res = await collect(user, written);
      expect(res.statusCode).toBe(200);
      expect(res.json().payload.form_data.fiscal_code).toBe('46720190');
      expect(res.json().payload.company).toMatchObject({ fiscal_code: '46720190', name: 'IONESCU MARIA-ELENA PERSOANĂ FIZICĂ AUTORIZATĂ', registration_number: 'F40/1287/2022', is_pfa: true });
      expect(lookups.calls).toEqual(['46720190']);
    }
  });

  it('a wrong check digit is refused on the field without any lookup', async () => {
    const user = await atStep2();
    await expectRefused(user, '42157398', MESSAGES.checkDigit);
    await expectRefused(user, 'RO 4215739', MESSAGES.checkDigit);
    expect(lookups.calls).toEqual([]);
  });

  it('what is not a fiscal code at all is refused by the step schema, without any lookup', async () => {
    const user = await atStep2();
    await expectRefused(user, 'abc', /./);
    await expectRefused(user, '4215 7397 1', /./);
    await expectRefused(user, 42157397, /./);
    // Digits the schema lets through but no CUI has: a leading zero.
    await expectRefused(user, 'RO0042157397', MESSAGES.format);
    const missing = await post(COLLECT, { current_step_identifier: STEP_2 }, user.token);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload.fiscal_code).toHaveLength(1);
    expect(lookups.calls).toEqual([]);
  });

  it('a valid CUI that no company has: "Nu am găsit…", nothing kept', async () => {
    const user = await atStep2();
    await expectRefused(user, '18473907', MESSAGES.notFound);
    expect(lookups.calls).toEqual(['18473907']);
  });

  it('a company that is not a PFA (an SRL) is refused with its legal form', async () => {
    const user = await atStep2();
    await expectRefused(user, 'RO37028469', MESSAGES.notPfa);
    expect(lookups.calls).toEqual(['37028469']);
  });

  it('the lookup service down: its Romanian message under the field, nothing kept; the same CUI works once it is back', async () => {
    const user = await atStep2();
    lookups.down = true;
    await expectRefused(user, '42157397', MESSAGES.unavailable);
    lookups.down = false;
    const res = await collect(user, '42157397');
    expect(res.statusCode).toBe(200);
    expect(res.json().payload.company).toEqual(POPESCU_ANSWER);
  });

  it('an unchanged CUI goes straight on without a lookup and keeps the confirmation; another CUI is looked up and must be confirmed again', async () => {
    const user = await atStep2();
    expect((await collect(user, '42157397')).statusCode).toBe(200);
    const confirmed = await post(CONFIRM, { current_step_identifier: STEP_3 }, user.token);
    expect(confirmed.statusCode).toBe(200);
    const confirmedAt = confirmed.json().payload.form_data.company_confirmed_at;
    expect(lookups.calls).toHaveLength(1);

    // Back to step 2, the same CUI written otherwise: no lookup, straight to step 3.
    expect((await post(PREVIOUS, {}, user.token)).json().payload.step).toBe(STEP_3);
    expect((await post(PREVIOUS, {}, user.token)).json().payload.step).toBe(STEP_2);
    const same = await collect(user, ' RO42157397 ');
    expect(same.statusCode).toBe(200);
    expect(same.json().payload).toMatchObject({ step: STEP_3, form_data: { fiscal_code: '42157397', company: POPESCU, company_confirmed_at: confirmedAt } });
    expect(lookups.calls).toHaveLength(1);

    // "Next" over step 2 with the kept CUI: no lookup either.
    expect((await post(PREVIOUS, {}, user.token)).json().payload.step).toBe(STEP_2);
    const next = await post(NEXT, { current_step_identifier: STEP_2 }, user.token);
    expect(next.statusCode).toBe(200);
    expect(next.json().payload.step).toBe(STEP_3);
    expect(lookups.calls).toHaveLength(1);

    // Another PFA: looked up, replaces the company, not confirmed yet.
    expect((await post(PREVIOUS, {}, user.token)).json().payload.step).toBe(STEP_2);
    const other = await collect(user, '46720190');
    expect(other.statusCode).toBe(200);
    expect(other.json().payload.form_data).toMatchObject({ fiscal_code: '46720190', company: { fiscal_code: '46720190' }, company_confirmed_at: null });
    expect(other.json().payload.company.name).toBe('IONESCU MARIA-ELENA PERSOANĂ FIZICĂ AUTORIZATĂ');
    expect(lookups.calls).toEqual(['42157397', '46720190']);

    // A refused CUI after that keeps the company found before.
    expect((await post(PREVIOUS, {}, user.token)).json().payload.step).toBe(STEP_2);
    await expectRefused(user, '37028469', MESSAGES.notPfa);
    expect((await requestRow(app, user)).formData.company).toMatchObject({ fiscal_code: '46720190' });
  });

  it('a token of another applicant changes only that applicant’s own request (409 there), a new-PFA applicant gets 403', async () => {
    const user = await atStep2();
    const before = await requestRow(app, user);
    const other = await registerUser(app, { type: 1 });
    const foreign = await post(COLLECT, { fiscal_code: '42157397', current_step_identifier: STEP_2 }, other.token);
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().payload.id).not.toBe(before.id);
    expect(foreign.json().payload.company).toBeNull();

    const newPfa = await registerUser(app, { type: 2 });
    expect((await post(COLLECT, { fiscal_code: '42157397', current_step_identifier: STEP_2 }, newPfa.token)).statusCode).toBe(403);

    const after = await requestRow(app, user);
    expect(after.version).toBe(before.version);
    expect(after.formData).toEqual(before.formData);
    expect(lookups.calls).toEqual([]);
  });

  it('a stale step: 409 with the request as it stands, nothing changed and nothing looked up', async () => {
    const user = await atStep2();
    expect((await collect(user, '42157397')).statusCode).toBe(200);
    lookups.calls.length = 0;
    const before = await requestRow(app, user);

    // A second tab still on step 2 sends another CUI.
    const stale = await collect(user, '46720190');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().payload).toMatchObject({ step: STEP_3, company: { fiscal_code: '42157397' } });
    // The collect call named with step 3, and the confirm call named with step 2.
    expect((await collect(user, '46720190', STEP_3)).statusCode).toBe(409);
    expect((await post(CONFIRM, { current_step_identifier: STEP_2 }, user.token)).statusCode).toBe(409);

    const after = await requestRow(app, user);
    expect(after.version).toBe(before.version);
    expect(after.formData).toEqual(before.formData);
    expect(lookups.calls).toEqual([]);
  });

  it('"Te-am găsit" without a company found: 422, the request stays', async () => {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, STEP_3);
    const before = await requestRow(app, user);
    const res = await post(CONFIRM, { current_step_identifier: STEP_3 }, user.token);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: MESSAGES.noCompany, payload: { company: [MESSAGES.noCompany] } });
    const after = await requestRow(app, user);
    expect(after.version).toBe(before.version);
    expect(after.step).toBe(STEP_3);

    // A company that is not a PFA, or that belongs to another CUI than the kept one, does not count either.
    await placeAtStep(app, user, STEP_3, { fiscal_code: '37028469', company: { ...POPESCU, fiscal_code: '37028469', legal_form: 'SRL', is_pfa: false } });
    expect((await post(CONFIRM, { current_step_identifier: STEP_3 }, user.token)).statusCode).toBe(422);
    await placeAtStep(app, user, STEP_3, { fiscal_code: '46720190', company: POPESCU });
    expect((await post(CONFIRM, { current_step_identifier: STEP_3 }, user.token)).statusCode).toBe(422);
  });

  it('"Te-am găsit" with the company found: confirmed with a time and on to pricing', async () => {
    const user = await atStep2();
    expect((await collect(user, '42157397')).statusCode).toBe(200);
    const started = Date.now();
    const res = await post(CONFIRM, { current_step_identifier: STEP_3 }, user.token);
    expect(res.statusCode).toBe(200);
    const payload = res.json().payload;
    expect(payload.step).toBe(STEP_4);
    expect(payload.company).toEqual(POPESCU_ANSWER);
    const confirmedAt = Date.parse(payload.form_data.company_confirmed_at);
    expect(payload.form_data.company_confirmed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(confirmedAt).toBeGreaterThanOrEqual(started - 1000);
    expect(confirmedAt).toBeLessThanOrEqual(Date.now());
    expect(lookups.calls).toEqual(['42157397']);
  });
});

describe('the local company registry (default COMPANY_LOOKUP)', () => {
  const file = JSON.parse(fs.readFileSync(path.resolve('server/db/seed/companies.json'), 'utf8')) as CompaniesFile;

  it('seed file: valid CUIs, the two sample ones, at least ten PFAs and a company that is not one', () => {
    const codes = file.companies.map((c) => c.fiscal_code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(hasValidCheckDigit(code), code).toBe(true);
    expect(codes).toEqual(expect.arrayContaining(['42157397', '46720190']));
    expect(file.companies.filter((c) => c.legal_form === 'PFA').length).toBeGreaterThanOrEqual(10);
    expect(file.companies.filter((c) => c.legal_form !== 'PFA').map((c) => c.legal_form)).toContain('SRL');
    for (const c of file.companies) {
      expect(c.registration_number).toMatch(c.legal_form === 'PFA' ? /^F\d{2}\/\d+\/\d{4}$/ : /^J\d{2}\/\d+\/\d{4}$/);
      if (c.legal_form === 'PFA') expect(c.name).toMatch(/ (PERSOANĂ FIZICĂ AUTORIZATĂ|PFA)$/);
    }
  });

  it('is the default, loaded from the seed file, and serves the whole flow without any set-up', async () => {
    const app = await testApp();
    try {
      expect(app.companies.name).toBe('local');
      const rows = await app.db.select().from(companies);
      expect(rows.map((r) => r.fiscalCode).sort()).toEqual(file.companies.map((c) => c.fiscal_code).sort());
      expect(await app.companies.lookup('18473907')).toBeNull();
      expect(await app.companies.lookup('37028469')).toMatchObject({ legal_form: 'SRL', is_pfa: false });

      const user = await registerUser(app, { type: 1 });
      await placeAtStep(app, user, STEP_2);
      const res = await app.inject({ method: 'POST', url: COLLECT, payload: { fiscal_code: 'RO 42157397', current_step_identifier: STEP_2 }, headers: auth(user.token) });
      expect(res.statusCode).toBe(200);
      expect(res.json().payload.company).toEqual(POPESCU_ANSWER);
    } finally {
      await app.close();
    }
  });

  it('COMPANY_LOOKUP and ANAF_API_URL', () => {
    expect(loadConfig({}).companyLookup).toBe('local');
    expect(loadConfig({}).anafApiUrl).toBe('https://webservicesp.anaf.ro');
    expect(loadConfig({ COMPANY_LOOKUP: 'anaf', ANAF_API_URL: 'http://127.0.0.1:8080/' })).toMatchObject({ companyLookup: 'anaf', anafApiUrl: 'http://127.0.0.1:8080' });
    expect(loadConfig({ COMPANY_LOOKUP: ' ANAF ' }).companyLookup).toBe('anaf');
    expect(() => loadConfig({ COMPANY_LOOKUP: 'onrc' })).toThrow(/COMPANY_LOOKUP/);
  });
});

describe('COMPANY_LOOKUP=anaf: step 2 through the ANAF web service (a local fake)', () => {
  const fake = new FakeAnaf();
  let app: FastifyInstance;
  beforeAll(async () => {
    await fake.start();
    fake.add(anafPfa(42157397), anafSrl(37028469));
    app = await buildApp(testConfig({ companyLookup: 'anaf', anafApiUrl: fake.url }), { database: await testDatabase(), checkAnswers: true });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await fake.stop();
  });

  it('ANAF down: its message under the field; back up: the PFA ANAF knows; an SRL refused; the same CUI again asks ANAF no more', async () => {
    expect(app.companies.name).toBe('anaf');
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, STEP_2);
    const send = (fiscalCode: string) => app.inject({ method: 'POST', url: COLLECT, payload: { fiscal_code: fiscalCode, current_step_identifier: STEP_2 }, headers: auth(user.token) });

    fake.failNext = 1;
    const down = await send('42157397');
    expect(down.statusCode).toBe(422);
    expect(down.json()).toEqual({ message: MESSAGES.unavailable, payload: { fiscal_code: [MESSAGES.unavailable] } });
    expect((await requestRow(app, user)).step).toBe(STEP_2);

    const srl = await send('RO37028469');
    expect(srl.statusCode).toBe(422);
    expect(srl.json().payload.fiscal_code).toEqual([MESSAGES.notPfa]);

    const ok = await send('42157397');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payload.company).toMatchObject({ fiscal_code: '42157397', name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ', registration_number: 'F12/345/2020', legal_form: 'PFA', is_pfa: true });
    expect(fake.calls.map((c) => c.body)).toEqual([[{ cui: 42157397, data: expect.any(String) }], [{ cui: 37028469, data: expect.any(String) }], [{ cui: 42157397, data: expect.any(String) }]]);

    // Another applicant with the same CUI: answered from memory.
    const second = await registerUser(app, { type: 1 });
    await placeAtStep(app, second, STEP_2);
    const again = await app.inject({ method: 'POST', url: COLLECT, payload: { fiscal_code: '42157397', current_step_identifier: STEP_2 }, headers: auth(second.token) });
    expect(again.statusCode).toBe(200);
    expect(fake.calls).toHaveLength(3);
  });
});
