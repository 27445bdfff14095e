import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readFlows } from '../../server/flows/registry';
import { stepEndpoints } from '../../server/registration/step-endpoints';
import { auth, placeAtStep, registerUser, requestRowOf, testApp, type RegisteredUser } from './helpers';

/**
 * The registration service (server/registration/service.ts) behind the thin step routes: the stale
 * check runs once, before the body meets the step's schema, so a call for another step answers 409
 * whatever its fields; the endpoints of a flow come from every version of its steps.
 */

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const post = (user: RegisteredUser, url: string, payload: object) => app.inject({ method: 'POST', url, payload, headers: auth(user.token) });

describe('the step submit: the stale check first', () => {
  it('a stale step with a body its schema refuses answers 409 (not 422) with the request as it stands, and changes nothing', async () => {
    const user = await registerUser(app, { type: 2 });
    await placeAtStep(app, user, 'requesting-company-step-1');
    const before = await requestRowOf(app, user);
    const res = await post(user, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', reasons: 'not a list' });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe('requesting-company-step-1');
    const after = await requestRowOf(app, user);
    expect(after.version).toBe(before.version);
    expect(after.formData).toEqual(before.formData);
  });

  it('the same body at the step the request stands at answers 422', async () => {
    const user = await registerUser(app, { type: 2 });
    await placeAtStep(app, user, 'requesting-company-step-0');
    const res = await post(user, '/api/registration/open', { current_step_identifier: 'requesting-company-step-0', reasons: 'not a list' });
    expect(res.statusCode).toBe(422);
    expect(res.json().payload).toHaveProperty('reasons');
  });

  it('a multipart step sent as JSON with a number for its step (the schema makes it text) is checked too: 409 elsewhere', async () => {
    const user = await registerUser(app, { type: 2 });
    await placeAtStep(app, user, 'requesting-company-step-0');
    const before = await requestRowOf(app, user);
    const res = await post(user, '/api/registration/collect/civil-status', { current_step_identifier: 4, is_married: false, marital_status_id: null });
    expect(res.statusCode).toBe(409);
    expect(res.json().payload.step).toBe('requesting-company-step-0');
    expect((await requestRowOf(app, user)).version).toBe(before.version);
  });
});

describe('stepEndpoints: the routes of a flow, from every version of its steps', () => {
  const flows = Object.fromEntries(readFlows().map(({ flow }) => [flow.id, flow]));

  it("lists each ready step's endpoint once, the base flow's first, then those only a variant names, with its schema", () => {
    const endpoints = stepEndpoints(flows['new-pfa']);
    const base = flows['new-pfa'].steps.filter((s) => s.status !== 'pending').map((s) => s.submit.endpoint);
    expect([...endpoints.keys()]).toEqual([...new Set(base), '/api/registration/collect/icredit-office']);
    expect(endpoints.get('/api/registration/collect/icredit-office')).toEqual({ schema: 'icredit-office.json', multipart: false, lookup: false });
    // The icredit variant names its own endpoint for the mailing step: the base step's keeps its schema.
    expect(endpoints.get('/api/registration/collect/mailing-address-type')?.schema).toBe('mailing-address.json');
  });

  it('marks the steps that send files and the company lookup', () => {
    const multipart = (id: string) => [...stepEndpoints(flows[id])].filter(([, e]) => e.multipart).map(([url]) => url);
    expect(multipart('new-pfa')).toEqual(['/api/registration/collect/diploma-documents', '/api/registration/collect/civil-status', '/api/registration/collect/signature']);
    expect(multipart('existing-pfa')).toEqual(['/api/registration/existing/collect/signature']);
    const lookups = [...stepEndpoints(flows['existing-pfa'])].filter(([, e]) => e.lookup).map(([url]) => url);
    expect(lookups).toEqual(['/api/registration/existing/collect/company']);
  });
});
