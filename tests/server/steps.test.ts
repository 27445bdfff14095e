import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { auth, placeAtStep, registerUser, testApp } from './helpers';
import { multipartPayload } from './identity-helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const post = (token: string, url: string, payload: object = {}) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? auth(token) : {} });

describe('nomenclatures of the wizard', () => {
  it('activities: six primary first, question-mark last', async () => {
    const res = await get('/api/nomenclature/activity/index?is_active=1');
    expect(res.statusCode).toBe(200);
    const list = res.json().payload;
    expect(list.slice(0, 6).every((a: { is_primary: boolean }) => a.is_primary)).toBe(true);
    expect(list.slice(0, 6).map((a: { code: string }) => a.code)).toEqual(['consultanta-it', 'curier', 'taxi', 'consultant-credite', 'psihoterapeut', 'medicina']);
    expect(list.at(-1)).toMatchObject({ code: 'question-mark', name: 'Nu găsesc activitatea' });
    expect((await get('/api/nomenclature/activity/index?is_active=7')).statusCode).toBe(422);
  });

  it('marital statuses in payload.data with the default one', async () => {
    const { data } = (await get('/api/nomenclature/marital-status/index')).json().payload;
    expect(data.map((m: { display_name: string }) => m.display_name)).toEqual([
      'Comunitatea legală de bunuri',
      'Separația de bunuri',
      'Comunitatea convențională de bunuri',
    ]);
    expect(data[0].is_default).toBe(true);
  });

  it('lost reasons of the questionnaire for a registration type, niciuna last, without sediu-la-client', async () => {
    const list = (await get('/api/nomenclature/lost-reasons/index?registration_type=2')).json().payload;
    const ids = list.map((r: { identifier: string }) => r.identifier);
    expect(ids).toEqual(['vinde-produse', 'activitate-exclusa', 'angajati-pe-pfa', 'casa-de-marcat', 'platitor-tva', 'niciuna']);
    expect(list[5]).toEqual({ identifier: 'niciuna', fe_text: 'Niciuna dintre acestea', fe_subtext: 'Prestez doar servicii, fără angajați și fără TVA' });
    const missing = await get('/api/nomenclature/lost-reasons/index');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({ registration_type: ['Alege tipul de înregistrare.'] });
  });
});

describe('activities: POST /api/registration/collect/company', () => {
  const step = 'requesting-company-step-2';

  it('keeps the activity (id and code) and moves to documents', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const res = await post(user.token, '/api/registration/collect/company', { activity_id: 2, activity_details: null, current_step_identifier: step });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({
      step: 'requesting-company-step-3',
      form_data: { activity_id: 2, activity: 'curier', activity_details: null },
      variants: ['unaffiliated', 'activity-courier'],
    });
  });

  it('"Nu găsesc activitatea" needs the free text, and keeps it', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const empty = await post(user.token, '/api/registration/collect/company', { activity_id: 99, activity_details: '  ', current_step_identifier: step });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().payload).toEqual({ activity_details: ['Descrie pe scurt activitatea pe care o vei avea.'] });
    const ok = await post(user.token, '/api/registration/collect/company', {
      activity_id: 99,
      activity_details: 'Restaurator de mobilă veche',
      current_step_identifier: step,
    });
    expect(ok.json().payload.form_data).toMatchObject({ activity: 'question-mark', activity_details: 'Restaurator de mobilă veche' });
  });

  it('refuses an unknown activity or a missing one, changing nothing', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const unknown = await post(user.token, '/api/registration/collect/company', { activity_id: 12345, current_step_identifier: step });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().payload).toEqual({ activity_id: ['Alege o activitate din listă.'] });
    const missing = await post(user.token, '/api/registration/collect/company', { current_step_identifier: step });
    expect(missing.json().payload).toEqual({ activity_id: ['Câmpul este obligatoriu.'] });
    const wrongType = await post(user.token, '/api/registration/collect/company', { activity_id: 'curier', current_step_identifier: step });
    expect(wrongType.statusCode).toBe(422);
    expect((await get('/api/registration/open', user.token)).json().payload).toMatchObject({ step, form_data: {} });
  });

  it('steps/next confirms the kept activity after going back', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    await post(user.token, '/api/registration/collect/company', { activity_id: 1, current_step_identifier: step });
    await post(user.token, '/api/registration/steps/previous', { current_step_identifier: 'requesting-company-step-3' });
    const next = await post(user.token, '/api/registration/steps/next', { current_step_identifier: step });
    expect(next.statusCode).toBe(200);
    expect(next.json().payload.step).toBe('requesting-company-step-3');
  });

  it('steps/next refuses a step whose data is missing', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const res = await post(user.token, '/api/registration/steps/next', { current_step_identifier: step });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toEqual({ activity_id: ['Câmpul este obligatoriu.'] });
  });

  it('the type-1 user cannot use the new flow (403)', async () => {
    const user = await registerUser(app, { type: 1 });
    const res = await post(user.token, '/api/registration/collect/company', { activity_id: 1, current_step_identifier: step });
    expect(res.statusCode).toBe(403);
  });
});

describe('civil status: POST /api/registration/collect/civil-status', () => {
  const step = 'requesting-company-step-4';

  it('not married sends marital_status_id null and moves on', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const res = await post(user.token, '/api/registration/collect/civil-status', { is_married: false, marital_status_id: null, current_step_identifier: step });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ step: 'requesting-company-step-5', form_data: { is_married: false, marital_status_id: null } });
  });

  it('married keeps the regime', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const res = await post(user.token, '/api/registration/collect/civil-status', { is_married: true, marital_status_id: 2, current_step_identifier: step });
    expect(res.json().payload.form_data).toMatchObject({ is_married: true, marital_status_id: 2 });
  });

  it('takes the multipart body of the spec (001 §7): text fields become a boolean and an id; null is left out', async () => {
    for (const [fields, expected] of [
      [{ is_married: 'true', marital_status_id: '2' }, { is_married: true, marital_status_id: 2 }],
      [{ is_married: 'false' }, { is_married: false, marital_status_id: null }],
    ] as const) {
      const user = await registerUser(app);
      await placeAtStep(app, user, step);
      const { payload, contentType } = await multipartPayload({ ...fields, current_step_identifier: step });
      const res = await app.inject({ method: 'POST', url: '/api/registration/collect/civil-status', payload, headers: { ...auth(user.token), 'content-type': contentType } });
      expect(res.statusCode).toBe(200);
      expect(res.json().payload).toMatchObject({ step: 'requesting-company-step-5', form_data: expected });
    }
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    for (const fields of [{ is_married: 'poate' }, { is_married: 'true', marital_status_id: 'doi' }, { is_married: 'true' }] as Record<string, string>[]) {
      const { payload, contentType } = await multipartPayload({ ...fields, current_step_identifier: step });
      const res = await app.inject({ method: 'POST', url: '/api/registration/collect/civil-status', payload, headers: { ...auth(user.token), 'content-type': contentType } });
      expect(res.statusCode).toBe(422);
    }
    const open = await app.inject({ method: 'GET', url: '/api/registration/open', headers: auth(user.token) });
    expect(open.json().payload.step).toBe(step);
  });

  it.each([
    [{ is_married: true }, { marital_status_id: ['Câmpul este obligatoriu.'] }],
    [{ is_married: true, marital_status_id: 77 }, { marital_status_id: ['Alege regimul matrimonial.'] }],
    [{ is_married: false, marital_status_id: 1 }, { marital_status_id: ['Valoarea nu este validă.'] }],
    [{}, { is_married: ['Câmpul este obligatoriu.'] }],
  ])('refuses %j', async (body, errors) => {
    const user = await registerUser(app);
    await placeAtStep(app, user, step);
    const res = await post(user.token, '/api/registration/collect/civil-status', { ...body, current_step_identifier: step });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toMatchObject(errors);
  });
});

describe('card: collect/card in both flows', () => {
  it('new flow: keeps ghiseu_card_requested and moves to pricing', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, 'requesting-company-step-8');
    const res = await post(user.token, '/api/registration/collect/card', { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ step: 'requesting-company-step-9', form_data: { ghiseu_card_requested: 1 } });
  });

  it('existing flow: card (step 7) comes before signature (step 6)', async () => {
    const user = await registerUser(app, { type: 1 });
    await placeAtStep(app, user, 'existing-company-step-7');
    const res = await post(user.token, '/api/registration/existing/collect/card', { ghiseu_card_requested: 0, current_step_identifier: 'existing-company-step-7' });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ step: 'existing-company-step-6', form_data: { ghiseu_card_requested: 0 } });
    expect(res.json().payload.steps).toMatchObject({ previous: { identifier: 'existing-company-step-7' }, next: null, total: 7 });
  });

  it('refuses a value other than 1 or 0, no answer (null) and a missing answer, in both flows, and stays', async () => {
    for (const [type, url, step] of [
      [2, '/api/registration/collect/card', 'requesting-company-step-8'],
      [1, '/api/registration/existing/collect/card', 'existing-company-step-7'],
    ] as const) {
      const user = await registerUser(app, { type });
      await placeAtStep(app, user, step);
      for (const body of [{ ghiseu_card_requested: 2 }, { ghiseu_card_requested: 'da' }, { ghiseu_card_requested: null }, {}]) {
        const res = await post(user.token, url, { ...body, current_step_identifier: step });
        expect(res.statusCode).toBe(422);
        expect(Object.keys(res.json().payload)).toEqual(['ghiseu_card_requested']);
      }
      const open = await app.inject({ method: 'GET', url: type === 1 ? '/api/registration/existing/open' : '/api/registration/open', headers: auth(user.token) });
      expect(open.json().payload.step).toBe(step);
      expect(open.json().payload.form_data.ghiseu_card_requested ?? null).toBeNull();
    }
  });
});
