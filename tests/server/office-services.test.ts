/**
 * The office popup's services (issue 17, spec 001 §2 item 4): seed data read at start and served
 * to the overview; choosing one marks only the applicant's own request lost with sediu-la-client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readOfficeServices } from '../../server/routes/office-services';
import { auth, placeAtStep, registerUser, requestRowOf, testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const STEP = 'requesting-company-step-7';

describe('GET /api/nomenclature/office-services', () => {
  it('lists the two services of the seed file, with https links', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nomenclature/office-services' });
    expect(res.statusCode).toBe(200);
    const services = res.json().payload as { id: string; name: string; description: string | null; url: string }[];
    expect(services).toHaveLength(2);
    expect(services.map((s) => s.name)).toEqual(['Portalul ONRC', 'Un expert contabil CECCAR']);
    for (const service of services) expect(service.url).toMatch(/^https:\/\//);
  });

  it('a broken seed file stops the start with the reason, never an empty popup', () => {
    const seed = (list: unknown) => JSON.stringify({ office_services: list });
    const ok = { id: 'a', name: 'A', description: 'd', url: 'https://a.example' };
    expect(readOfficeServices(seed([ok]))).toEqual([ok]);
    expect(() => readOfficeServices(seed([]))).toThrow(/1 to 4 services/);
    expect(() => readOfficeServices(seed([{ ...ok, url: 'javascript:alert(1)' }]))).toThrow(/https:\/\//);
    expect(() => readOfficeServices(seed([{ ...ok, url: 'http://a.example' }]))).toThrow(/https:\/\//);
    expect(() => readOfficeServices(seed([ok, ok]))).toThrow(/unique/);
    expect(() => readOfficeServices(seed([{ ...ok, name: ' ' }]))).toThrow(/name/);
  });
});

describe('choosing a service: POST /api/mark-as-lost sediu-la-client', () => {
  it('marks the applicant\'s own request lost and leaves another applicant\'s as it is', async () => {
    const ana = await registerUser(app);
    const ion = await registerUser(app);
    await placeAtStep(app, ana, STEP);
    await placeAtStep(app, ion, STEP);
    const res = await app.inject({ method: 'POST', url: '/api/mark-as-lost', headers: auth(ana.token), payload: { reason_identifier: 'sediu-la-client' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toMatchObject({ status: 'lost', lost_reason: 'sediu-la-client', step: STEP });
    const other = await requestRowOf(app, ion);
    expect(other.lostReason ?? null).toBeNull();
  });

  it('refuses an unknown reason or none with a field error and changes nothing; no token is a 401', async () => {
    const ana = await registerUser(app);
    await placeAtStep(app, ana, STEP);
    const before = await requestRowOf(app, ana);
    for (const payload of [{ reason_identifier: 'sediu-acasa' }, { reason_identifier: '' }, {}, { reason_identifier: 'x'.repeat(200) }]) {
      const res = await app.inject({ method: 'POST', url: '/api/mark-as-lost', headers: auth(ana.token), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().payload)).toContain('reason_identifier');
    }
    expect(await requestRowOf(app, ana)).toEqual(before);
  });
});
