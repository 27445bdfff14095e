import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('GET /api/nomenclature/county/index/{offset}/{limit}', () => {
  it('lists the 42 counties in Romanian order with limit 42', async () => {
    const res = await get('/api/nomenclature/county/index/0/42');
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json().payload;
    expect(total).toBe(42);
    expect(data).toHaveLength(42);
    expect(data[0]).toEqual({ id: 1, name: 'Alba', code: 'AB' });
    const names = data.map((c: { name: string }) => c.name);
    // Romanian alphabet: a < ă, s < ș; București (id 40) and Călărași (id 51) sit in their places.
    expect(names.indexOf('Brașov')).toBeLessThan(names.indexOf('Brăila'));
    expect(names.indexOf('Caraș-Severin')).toBeLessThan(names.indexOf('Călărași'));
    expect(names.indexOf('Călărași')).toBeLessThan(names.indexOf('Cluj'));
    expect(names.indexOf('București')).toBeLessThan(names.indexOf('Buzău'));
  });

  it('searches without diacritics', async () => {
    const { data, total } = (await get('/api/nomenclature/county/index/0/42?search_term=brasov')).json().payload;
    expect(total).toBe(1);
    expect(data[0]).toMatchObject({ name: 'Brașov', code: 'BV' });
  });

  it('pages', async () => {
    const { data, total } = (await get('/api/nomenclature/county/index/40/42')).json().payload;
    expect(total).toBe(42);
    expect(data).toHaveLength(2);
  });

  it.each([['/api/nomenclature/county/index/-1/42'], ['/api/nomenclature/county/index/0/0'], ['/api/nomenclature/county/index/0/500'], ['/api/nomenclature/county/index/a/42']])(
    'refuses bad paging %s with 422',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().payload).length).toBeGreaterThan(0);
    },
  );
});

describe('GET /api/nomenclature/city/index/{offset}/{limit}', () => {
  it("lists a county's cities with a total, paged by 25", async () => {
    const res = await get('/api/nomenclature/city/index/0/25?county_id=12');
    expect(res.statusCode).toBe(200);
    const { data, total } = res.json().payload;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(data.every((c: { county_id: number }) => c.county_id === 12)).toBe(true);
    expect(data.map((c: { name: string }) => c.name)).toContain('Cluj-Napoca');
  });

  it('searches by name without diacritics and case', async () => {
    const { data } = (await get('/api/nomenclature/city/index/0/25?county_id=40&search_term=BUCURESTI')).json().payload;
    expect(data[0].name).toBe('București');
  });

  it('treats LIKE wildcards in the search as plain characters', async () => {
    const { total } = (await get('/api/nomenclature/city/index/0/25?county_id=12&search_term=%25')).json().payload;
    expect(total).toBe(0);
  });

  it('needs a county that exists', async () => {
    const missing = await get('/api/nomenclature/city/index/0/25');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().payload).toEqual({ county_id: ['Alege mai întâi județul.'] });
    const unknown = await get('/api/nomenclature/city/index/0/25?county_id=99');
    expect(unknown.json().payload).toEqual({ county_id: ['Județul ales nu există.'] });
  });
});
