import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { registrationRequests, users } from '../../server/db/schema';
import { readFlows } from '../../server/flows/registry';
import { auth, placeAtStep, registerUser, testApp, type RegisteredUser } from './helpers';

const flowFiles = () => readFlows().map(({ flow }) => flow);

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const post = (token: string, url: string, payload: object = {}) => app.inject({ method: 'POST', url, payload, headers: auth(token) });
const open = (token: string, existing = false) =>
  app.inject({ method: 'GET', url: existing ? '/api/registration/existing/open' : `/api/registration/open?timestamp=${Date.now()}`, headers: auth(token) });

async function requestRow(user: RegisteredUser) {
  const [row] = await app.db.select().from(registrationRequests).where(eq(registrationRequests.userId, user.user.id));
  return row;
}

describe('GET /api/registration/open', () => {
  it('opens the request at the questionnaire with the steps, partner and prices', async () => {
    const user = await registerUser(app, { type: 2, partner: 'icredit' });
    const res = await open(user.token);
    expect(res.statusCode).toBe(200);
    const request = res.json().payload;
    expect(request).toMatchObject({
      registration_type: 2,
      step: 'requesting-company-step-0',
      status: 'in_progress',
      paid: false,
      form_data: {},
      steps: { previous: null, current: { identifier: 'requesting-company-step-0', index: 0 }, next: { identifier: 'requesting-company-step-1' }, total: 10 },
      partner: { slug: 'icredit', is_unaffiliated: false },
      variants: ['icredit'],
    });
    expect(request.partner.prices[0]).toMatchObject({ stripe_id: 'price_ghiseu_icredit_monthly', amount: 130, currency: 'RON' });
    // Opening again gives the same request.
    expect((await open(user.token)).json().payload.id).toBe(request.id);
  });

  it('the existing flow has 7 steps and starts at existing-company-step-1', async () => {
    const user = await registerUser(app, { type: 1 });
    const request = (await open(user.token, true)).json().payload;
    expect(request.steps).toMatchObject({ current: { identifier: 'existing-company-step-1' }, total: 7 });
    expect(request.variants).toEqual(['unaffiliated']);
  });

  it("refuses the other type's flow (403)", async () => {
    const user = await registerUser(app, { type: 1 });
    expect((await open(user.token)).statusCode).toBe(403);
  });
});

describe('questionnaire: POST /api/registration/open, mark-as-lost, mark-as-unlost', () => {
  it('"niciuna" moves to the identity step and keeps the answer', async () => {
    const user = await registerUser(app);
    await open(user.token);
    const res = await post(user.token, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ step: 'requesting-company-step-1', form_data: { questionnaire: ['niciuna'] } });
  });

  it.each([
    [{ reasons: [] }, 'reasons', 'Sunt permise'],
    [{}, 'reasons', 'Câmpul este obligatoriu.'],
    [{ reasons: ['nu-exista'] }, 'reasons', 'Opțiune necunoscută.'],
    [{ reasons: ['niciuna', 'vinde-produse'] }, 'reasons', 'Cu aceste opțiuni nu poți continua'],
  ])('refuses %j with 422 and stays', async (body, field, message) => {
    const user = await registerUser(app);
    await open(user.token);
    const res = await post(user.token, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', ...body });
    expect(res.statusCode).toBe(422);
    if (message !== 'Sunt permise') expect(res.json().payload[field][0]).toContain(message);
    else expect(res.json().payload[field]).toBeDefined();
    expect((await requestRow(user)).step).toBe('requesting-company-step-0');
  });

  it('a lost reason marks the request lost and sets stop_flow; unlost clears both and answers the type', async () => {
    const user = await registerUser(app, { type: 1 });
    await open(user.token, true);
    const lost = await post(user.token, '/api/mark-as-lost', { reason_identifier: 'platitor-tva' });
    expect(lost.statusCode).toBe(200);
    expect(lost.json().payload).toMatchObject({ status: 'lost', lost_reason: 'platitor-tva' });
    const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: user.email, password: user.password } });
    expect(login.json().payload.stop_flow).toBe(true);

    const unlost = await post(user.token, '/api/mark-as-unlost');
    expect(unlost.statusCode).toBe(200);
    expect(unlost.json().payload).toEqual({ registration_type: 1 });
    expect((await requestRow(user)).status).toBe('in_progress');
    const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    expect(row.stopFlow).toBe(false);
  });

  it('answering "niciuna" after stopping brings the request and the user back into the flow', async () => {
    const user = await registerUser(app);
    await open(user.token);
    await post(user.token, '/api/mark-as-lost', { reason_identifier: 'vinde-produse' });
    const res = await post(user.token, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] });
    expect(res.json().payload).toMatchObject({ status: 'in_progress', lost_reason: null, step: 'requesting-company-step-1' });
    const [row] = await app.db.select().from(users).where(eq(users.id, user.user.id));
    expect(row.stopFlow).toBe(false);
  });

  it('refuses an unknown reason and "niciuna" as a lost reason, changing nothing', async () => {
    const user = await registerUser(app);
    await open(user.token);
    for (const reason_identifier of ['nu-exista', 'niciuna']) {
      const res = await post(user.token, '/api/mark-as-lost', { reason_identifier });
      expect(res.statusCode).toBe(422);
      expect(res.json().payload).toEqual({ reason_identifier: ['Motiv necunoscut.'] });
    }
    expect((await requestRow(user)).status).toBe('in_progress');
    expect((await post(user.token, '/api/mark-as-lost', {})).statusCode).toBe(422);
  });
});

describe('stale current_step_identifier', () => {
  it('a second submit of the same step gets 409 with the current request and changes nothing', async () => {
    const user = await registerUser(app);
    await open(user.token);
    const body = { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] };
    expect((await post(user.token, '/api/registration/open', body)).statusCode).toBe(200);
    const before = await requestRow(user);
    const again = await post(user.token, '/api/registration/open', body);
    expect(again.statusCode).toBe(409);
    expect(again.json().payload.step).toBe('requesting-company-step-1');
    expect(again.json().message).toBe('Acest pas a fost deja trimis. Te ducem la pasul la care ai rămas.');
    expect((await requestRow(user)).version).toBe(before.version);
  });

  it('two simultaneous submits advance once', async () => {
    const user = await registerUser(app);
    await open(user.token);
    const body = { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] };
    const results = await Promise.all([post(user.token, '/api/registration/open', body), post(user.token, '/api/registration/open', body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await requestRow(user)).step).toBe('requesting-company-step-1');
  });

  it("a step's endpoint called at another step answers 409", async () => {
    const user = await registerUser(app);
    await open(user.token);
    const res = await post(user.token, '/api/registration/collect/card', { current_step_identifier: 'requesting-company-step-8', ghiseu_card_requested: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe('requesting-company-step-0');
    expect((await requestRow(user)).formData).toEqual({});
  });

  it('previous with a stale identifier gets 409; without one it goes back', async () => {
    const user = await registerUser(app);
    await open(user.token);
    await post(user.token, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] });
    const stale = await post(user.token, '/api/registration/steps/previous', { current_step_identifier: 'requesting-company-step-0' });
    expect(stale.statusCode).toBe(409);
    const back = await post(user.token, '/api/registration/steps/previous', { current_step_identifier: 'requesting-company-step-1' });
    expect(back.statusCode).toBe(200);
    expect(back.json().payload.step).toBe('requesting-company-step-0');
    // At the first step previous changes nothing.
    const first = await post(user.token, '/api/registration/steps/previous');
    expect(first.json().payload.step).toBe('requesting-company-step-0');
  });
});

describe('another user', () => {
  it("cannot see or move someone else's request: every call works on the token's own request", async () => {
    const a = await registerUser(app);
    const b = await registerUser(app);
    await open(a.token);
    await post(a.token, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] });
    const bView = (await open(b.token)).json().payload;
    expect(bView.step).toBe('requesting-company-step-0');
    expect(bView.id).not.toBe((await requestRow(a)).id);
    // b pretending to be at a's step: 409 on b's own request, a's unchanged.
    const res = await post(b.token, '/api/registration/steps/previous', { current_step_identifier: 'requesting-company-step-1' });
    expect(res.statusCode).toBe(409);
    expect((await requestRow(a)).step).toBe('requesting-company-step-1');
  });
});

describe('every step endpoint of both flow files', () => {
  // Read from the flow files themselves: a step added there is covered here without a new test.
  const steps = flowFiles().flatMap((flow) => flow.steps.map((step) => ({ type: flow.registrationType as 1 | 2, id: step.id, endpoint: step.submit.endpoint, multipart: step.submit.encoding === 'multipart' })));

  it.each(steps)('$endpoint ($id): called while the request stands elsewhere 409, nothing changed', async ({ type, id, endpoint, multipart }) => {
    const user = await registerUser(app, { type });
    const elsewhere = steps.find((s) => s.type === type && s.id !== id && s.endpoint !== endpoint)!.id;
    await placeAtStep(app, user, elsewhere);
    const before = await requestRow(user);
    const res = await post(user.token, endpoint, { current_step_identifier: id });
    expect(res.statusCode, multipart ? 'multipart endpoints take JSON too' : undefined).toBe(409);
    expect(res.json().payload.step).toBe(elsewhere);
    const after = await requestRow(user);
    expect(after.version).toBe(before.version);
    expect(after.formData).toEqual(before.formData);
  });
});
