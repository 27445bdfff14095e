import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { AnafCompanyLookup, recordFromAnaf } from '../../server/company/anaf';
import { readCompanyCaen, type CompanyCaen } from '../../server/company/caen';
import { LocalCompanyRegistry } from '../../server/company/local';
import { normaliseCaenCode } from '../../server/company/types';
import type { CaenCorrespondenceFile, CaenListFile } from '../../server/db/caen';
import type { CompaniesFile } from '../../server/db/seed';
import { auth, placeAtStep, registerUser, testApp, testConfig, testDatabase, uniqueEmail, type RegisteredUser } from './helpers';
import { anafPfa, FakeAnaf } from './fake-anaf';

/**
 * Issue 31, "Am PFA": the firm's main activity code (ANAF `date_generale.cod_CAEN`, or the local
 * registry's `caen_code`) is kept with the company, and the request's `company.caen` says what it
 * means in CAEN Rev.3 — read against the real seed data (both class lists and the official
 * correspondence), never against names written here.
 */

const seed = (file: string) => JSON.parse(fs.readFileSync(path.resolve('server/db/seed', file), 'utf8')) as unknown;
const REV2 = seed('caen-rev2.json') as CaenListFile;
const REV3 = seed('caen-rev3.json') as CaenListFile;
const PAIRS = (seed('caen-rev2-rev3.json') as CaenCorrespondenceFile).pairs;
const COMPANIES = (seed('companies.json') as CompaniesFile).companies;

/** A class of the seed list, as the answer names it. */
function caenClass(list: CaenListFile, code: string) {
  const found = list.codes.find((c) => c.code === code);
  if (!found) throw new Error(`${list.revision} has no ${code}`);
  return { code, name: found.name };
}
/** The Rev.3 classes the correspondence gives a Rev.2 class, by code. */
const rev3Of = (code: string) => [...new Set(PAIRS.filter(([from]) => from === code).map(([, to]) => to))].sort().map((to) => caenClass(REV3, to));

const STEP_2 = 'existing-company-step-2';
const STEP_3 = 'existing-company-step-3';
const COLLECT = '/api/registration/existing/collect/company';
const OPEN = '/api/registration/existing/open';

describe('normaliseCaenCode: the registry’s code as four digits', () => {
  it('keeps four digits, puts back a dropped leading zero, drops a dot, and reads nothing else as a code', () => {
    expect(normaliseCaenCode('6201')).toBe('6201');
    expect(normaliseCaenCode(' 6201 ')).toBe('6201');
    expect(normaliseCaenCode('111')).toBe('0111');
    expect(normaliseCaenCode(111)).toBe('0111');
    expect(normaliseCaenCode(4791)).toBe('4791');
    expect(normaliseCaenCode('62.01')).toBe('6201');
    expect(normaliseCaenCode('1.11')).toBe('0111');
    for (const none of ['', '   ', '0', '0000', '62', '62011', 'abcd', '62a1', null, undefined, 62.5, {}, ['6201']]) expect(normaliseCaenCode(none), JSON.stringify(none)).toBeNull();
  });
});

describe('the ANAF answer’s cod_CAEN', () => {
  const withCode = (cod_CAEN: unknown) => {
    const found = anafPfa(42157397);
    return recordFromAnaf({ ...found, date_generale: { ...found.date_generale, cod_CAEN } } as Parameters<typeof recordFromAnaf>[0], '42157397');
  };

  it('is kept as the record’s caen_code, normalised; empty or missing is null', () => {
    expect(withCode('6201').caen_code).toBe('6201');
    expect(withCode('111').caen_code).toBe('0111');
    expect(withCode(8693).caen_code).toBe('8693');
    expect(withCode('').caen_code).toBeNull();
    expect(withCode(undefined).caen_code).toBeNull();
  });

  describe('through the web service (a local fake)', () => {
    const fake = new FakeAnaf();
    beforeAll(async () => {
      await fake.start();
      const pfa = (cui: number, cod_CAEN: string) => {
        const found = anafPfa(cui);
        return { ...found, date_generale: { ...found.date_generale, cod_CAEN } };
      };
      fake.add(anafPfa(42157397), pfa(46720190, '4791'), pfa(38176420, '111'), pfa(40512964, ''));
    });
    afterAll(() => fake.stop());

    it('the lookup returns it as ANAF gave it, a dropped zero put back, an empty one as null', async () => {
      const anaf = new AnafCompanyLookup({ baseUrl: fake.url, minIntervalMs: 0 });
      expect((await anaf.lookup('42157397'))?.caen_code).toBe('6201');
      expect((await anaf.lookup('46720190'))?.caen_code).toBe('4791');
      expect((await anaf.lookup('38176420'))?.caen_code).toBe('0111');
      expect((await anaf.lookup('40512964'))?.caen_code).toBeNull();
    });

    it('COMPANY_LOOKUP=anaf: the request’s company carries the code and its CAEN Rev.3 reading', async () => {
      const app = await buildApp(testConfig({ companyLookup: 'anaf', anafApiUrl: fake.url }), { database: await testDatabase(), checkAnswers: true });
      await app.ready();
      try {
        const user = await registerUser(app, { type: 1 });
        await placeAtStep(app, user, STEP_2);
        const res = await app.inject({ method: 'POST', url: COLLECT, payload: { fiscal_code: '42157397', current_step_identifier: STEP_2 }, headers: auth(user.token) });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().payload.company).toMatchObject({
          caen_code: '6201',
          caen: { code: '6201', status: 'previous', previous: caenClass(REV2, '6201'), current: null, equivalents: rev3Of('6201') },
        });
      } finally {
        await app.close();
      }
    });
  });
});

describe('readCompanyCaen over the seed data', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());
  const read = (code: string) => readCompanyCaen(app.db, code);

  it('previous: a CAEN Rev.2 class gone from Rev.3, with its Rev.3 correspondence (6201 → 6210)', async () => {
    expect(rev3Of('6201').map((c) => c.code)).toEqual(['6210']);
    expect(await read('6201')).toEqual({ code: '6201', status: 'previous', previous: caenClass(REV2, '6201'), current: null, equivalents: [caenClass(REV3, '6210')] });
  });

  it('previous: a Rev.2 class that split lists every Rev.3 class it became (7410)', async () => {
    const caen = await read('7410');
    expect(caen.status).toBe('previous');
    expect(caen.equivalents.length).toBeGreaterThan(1);
    expect(caen.equivalents).toEqual(rev3Of('7410'));
  });

  it('ambiguous: the same digits in both revisions with different meanings (4791), the Rev.2 reading’s Rev.3 classes from the correspondence', async () => {
    const caen = await read('4791');
    expect(caen).toEqual({ code: '4791', status: 'ambiguous', previous: caenClass(REV2, '4791'), current: caenClass(REV3, '4791'), equivalents: rev3Of('4791') });
    expect(caen.previous?.name).not.toBe(caen.current?.name);
    expect(caen.equivalents.length).toBeGreaterThan(1);
    // A class of both whose Rev.2 class also went elsewhere is ambiguous too (4941: → 4941 and 5224).
    expect(await read('4941')).toMatchObject({ status: 'ambiguous', equivalents: rev3Of('4941') });
  });

  it('current: a CAEN Rev.3 class only (6210, 8693), or one of both whose Rev.2 class became just this code (6920, 0113)', async () => {
    expect(await read('6210')).toEqual({ code: '6210', status: 'current', current: caenClass(REV3, '6210'), previous: null, equivalents: [] });
    expect(await read('8693')).toMatchObject({ status: 'current', current: caenClass(REV3, '8693'), previous: null });
    expect(rev3Of('6920').map((c) => c.code)).toEqual(['6920']);
    expect(await read('6920')).toEqual({ code: '6920', status: 'current', current: caenClass(REV3, '6920'), previous: caenClass(REV2, '6920'), equivalents: [] });
    // Rev.3 0113 also took in other Rev.2 classes: a firm with 0113 still reads 0113 either way.
    expect(await read('0113')).toMatchObject({ status: 'current', current: caenClass(REV3, '0113') });
  });

  it('unknown: a code of neither revision, or no code at all; a dropped leading zero is put back', async () => {
    expect(await read('9999')).toEqual({ code: '9999', status: 'unknown', current: null, previous: null, equivalents: [] });
    expect(await read('abc')).toMatchObject({ status: 'unknown', current: null, previous: null, equivalents: [] });
    expect(await read('111')).toMatchObject({ code: '0111', status: 'current' });
  });

  it('the local registry: every sample firm has a code of one of the revisions, returned by the lookup; every case is there', async () => {
    const registry = new LocalCompanyRegistry(app.db);
    const statuses = new Map<string, CompanyCaen['status']>();
    for (const c of COMPANIES) {
      expect(c.caen_code, c.fiscal_code).toMatch(/^\d{4}$/);
      expect((await registry.lookup(c.fiscal_code))?.caen_code).toBe(c.caen_code);
      const caen = await read(c.caen_code as string);
      expect(caen.status, c.caen_code as string).not.toBe('unknown');
      statuses.set(c.caen_code as string, caen.status);
    }
    expect(statuses.get('6201')).toBe('previous');
    expect(statuses.get('4791')).toBe('ambiguous');
    expect([...statuses.values()]).toContain('current');
  });
});

describe('the request’s company and the staff dossier carry the analysis', () => {
  const OPS_TOKEN = 'ops-test-token-company-caen-0123';
  let app: FastifyInstance;
  let operatorToken: string;
  beforeAll(async () => {
    app = await testApp({ opsToken: OPS_TOKEN });
    const email = uniqueEmail('operator');
    const made = await app.inject({ method: 'POST', url: '/api/ops/staff', headers: { authorization: `Bearer ${OPS_TOKEN}`, 'x-ops-actor': 'Ana Operator' }, payload: { email, password: 'parola-personal-1', role: 'operator' } });
    expect(made.statusCode).toBe(201);
    operatorToken = (await app.inject({ method: 'POST', url: '/api/staff/login', payload: { email, password: 'parola-personal-1' } })).json().payload.access_token;
  });
  afterAll(() => app.close());

  async function found(fiscalCode: string): Promise<RegisteredUser & { requestId: number; collected: Record<string, unknown> }> {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, STEP_2);
    const res = await app.inject({ method: 'POST', url: COLLECT, payload: { fiscal_code: fiscalCode, current_step_identifier: STEP_2 }, headers: auth(user.token) });
    expect(res.statusCode, res.body).toBe(200);
    return { ...user, requestId: res.json().payload.id, collected: res.json().payload };
  }
  const dossier = async (id: number) => {
    const res = await app.inject({ method: 'GET', url: `/api/staff/dossiers/${id}`, headers: auth(operatorToken) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().payload as { request: { company: Record<string, unknown> | null } };
  };

  it('a CAEN Rev.2 code (6201): the step’s answer, the open request and the operator’s dossier all say previous → 6210', async () => {
    const user = await found('42157397');
    const expected = { caen_code: '6201', caen: { code: '6201', status: 'previous', previous: caenClass(REV2, '6201'), current: null, equivalents: [caenClass(REV3, '6210')] } };
    expect(user.collected.form_data).toMatchObject({ company: { caen_code: '6201' } });
    expect(user.collected.company).toMatchObject({ fiscal_code: '42157397', ...expected });
    const open = (await app.inject({ method: 'GET', url: OPEN, headers: auth(user.token) })).json().payload;
    expect(open.step).toBe(STEP_3);
    expect(open.company).toMatchObject(expected);
    expect((await dossier(user.requestId)).request.company).toMatchObject(expected);
  });

  it('4791: ambiguous, both readings and the Rev.2 reading’s correspondence, for the applicant and the operator', async () => {
    const user = await found('46720190');
    const expected = { caen_code: '4791', caen: { code: '4791', status: 'ambiguous', previous: caenClass(REV2, '4791'), current: caenClass(REV3, '4791'), equivalents: rev3Of('4791') } };
    expect(user.collected.company).toMatchObject(expected);
    expect((await dossier(user.requestId)).request.company).toMatchObject(expected);
  });

  it('a CAEN Rev.3 code (6210): current, nothing to update', async () => {
    const user = await found('38176420');
    expect(user.collected.company).toMatchObject({ caen_code: '6210', caen: { status: 'current', current: caenClass(REV3, '6210'), equivalents: [] } });
  });

  it('a company stored before codes were kept: no code, no analysis; a new-PFA dossier has no company', async () => {
    const user = await registerUser(app, { type: 1 });
    const old = { fiscal_code: '42157397', name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ', address: 'Cluj', registration_number: 'F12/345/2020', legal_form: 'PFA', is_pfa: true, county: 'Cluj', city: 'Cluj-Napoca' };
    await placeAtStep(app, user, STEP_3, { fiscal_code: '42157397', company: old });
    const open = (await app.inject({ method: 'GET', url: OPEN, headers: auth(user.token) })).json().payload;
    expect(open.company).toEqual({ ...old, caen_code: null, caen: null });
    expect((await dossier(open.id)).request.company).toEqual({ ...old, caen_code: null, caen: null });

    const newPfa = await registerUser(app, { type: 2 });
    const id = (await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(newPfa.token) })).json().payload.id;
    expect((await dossier(id)).request.company).toBeNull();
  });
});
