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

  it('holds every locality of the county, municipalities first, and pages the whole register by 25', async () => {
    // SIRUTA: Alba has 78 municipalities, towns and communes and 716 localities, 78 of which are the units themselves.
    const first = (await get('/api/nomenclature/city/index/0/25?county_id=1')).json().payload;
    expect(first.total).toBe(78 + 716 - 11);
    expect(first.data.slice(0, 4).map((c: { name: string; kind: string }) => [c.name, c.kind])).toEqual([
      ['Aiud', 'municipiu'],
      ['Alba Iulia', 'municipiu'],
      ['Blaj', 'municipiu'],
      ['Sebeș', 'municipiu'],
    ]);
    const names = new Set<string>();
    for (let offset = 0; offset < first.total; offset += 25) {
      const page = (await get(`/api/nomenclature/city/index/${offset}/25?county_id=1`)).json().payload;
      expect(page.total).toBe(first.total);
      for (const c of page.data) names.add(c.name);
    }
    expect(names.size).toBe(first.total);
    expect(names).toContain('Rogoz, comuna Albac');
  });

  it('finds a commune, and a village by its own name and by its commune’s, with its postal code', async () => {
    const albac = (await get(`/api/nomenclature/city/index/0/25?county_id=1&search_term=albac`)).json().payload;
    expect(albac.data[0]).toEqual({ id: expect.any(Number), name: 'Albac', county_id: 1, kind: 'comuna', postal_code: null });
    expect(albac.data.map((c: { name: string }) => c.name)).toContain('Rogoz, comuna Albac');
    expect(albac.total).toBe(1 + 16);
    const rogoz = (await get(`/api/nomenclature/city/index/0/25?county_id=1&search_term=${encodeURIComponent('ROGOZ')}`)).json().payload;
    expect(rogoz.data).toEqual([{ id: expect.any(Number), name: 'Rogoz, comuna Albac', county_id: 1, kind: 'sat', postal_code: '517018' }]);
    // A village of a municipality, typed without diacritics.
    const village = (await get(`/api/nomenclature/city/index/0/25?county_id=1&search_term=barabant`)).json().payload;
    expect(village.data).toEqual([{ id: expect.any(Number), name: 'Bărăbanț, municipiul Alba Iulia', county_id: 1, kind: 'sat', postal_code: '510001' }]);
    // Names that start with the search come first.
    const alba = (await get(`/api/nomenclature/city/index/0/25?county_id=1&search_term=alba`)).json().payload;
    expect(alba.data[0].name).toBe('Alba Iulia');
  });

  it('tells villages of the same name in one county apart by their commune', async () => {
    const all: { name: string; kind: string }[] = [];
    const term = 'valea';
    const first = (await get(`/api/nomenclature/city/index/0/100?county_id=1&search_term=${term}`)).json().payload;
    all.push(...first.data);
    for (let offset = 100; offset < first.total; offset += 100) all.push(...(await get(`/api/nomenclature/city/index/${offset}/100?county_id=1&search_term=${term}`)).json().payload.data);
    const labels = all.map((c) => c.name);
    expect(new Set(labels).size).toBe(labels.length);
    const bare = all.filter((c) => c.kind === 'sat').map((c) => c.name.split(', ')[0]);
    expect(new Set(bare).size).toBeLessThan(bare.length);
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
