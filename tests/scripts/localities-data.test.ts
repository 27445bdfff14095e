import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isValidSirutaCode, JUD_COUNTIES, type LocalitiesFile } from '../../server/db/import-siruta';
import { COUNTIES } from '@/core/counties';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/db/seed/localities.json');
const data = JSON.parse(fs.readFileSync(file, 'utf8')) as LocalitiesFile;
const collator = new Intl.Collator('ro', { sensitivity: 'variant', numeric: true });

const count = (kind: string, code?: string): number =>
  data.counties
    .filter((c) => code === undefined || c.code === code)
    .reduce((n, c) => n + c.cities.filter((city) => city.kind === kind).length, 0);

const countyOf = (name: string, kind = 'oras'): string[] =>
  data.counties.filter((c) => c.cities.some((city) => city.name === name && city.kind === kind)).map((c) => c.code);

/**
 * [municipalities, towns] per county, as counted independently of the list itself (the 2011
 * totals: 103 municipii, 217 orașe; no change in status since). Ilfov has no municipality: its
 * seat, Buftea, is an oraș (SIRUTA type 5, "oraș reședință de județ").
 */
const URBAN_COUNTS: Record<string, [number, number]> = {
  AB: [4, 7], AR: [1, 9], AG: [3, 4], BC: [3, 5], BH: [4, 6], BN: [1, 3], BT: [2, 5], BV: [4, 6],
  BR: [1, 3], B: [1, 0], BZ: [2, 3], CS: [2, 6], CL: [2, 3], CJ: [5, 1], CT: [3, 9], CV: [2, 3],
  DB: [2, 5], DJ: [3, 4], GL: [2, 2], GR: [1, 2], GJ: [2, 7], HR: [4, 5], HD: [7, 7], IL: [3, 4],
  IS: [2, 3], IF: [0, 8], MM: [2, 11], MH: [2, 3], MS: [4, 7], NT: [2, 3], OT: [2, 6], PH: [2, 12],
  SM: [2, 4], SJ: [1, 3], SB: [2, 9], SV: [5, 11], TR: [3, 2], TM: [2, 8], TL: [1, 4], VS: [3, 2],
  VL: [2, 9], VN: [2, 3],
};

describe('server/db/seed/localities.json', () => {
  it('has a one-sentence source pointing at the importer', () => {
    expect(data.source).toMatch(/npm run import:siruta/);
    expect(data.source.trim().endsWith('.')).toBe(true);
  });

  it('lists the 42 counties once each, with the names and codes of src/core/counties', () => {
    expect(data.counties).toHaveLength(42);
    const codes = data.counties.map((c) => c.code);
    expect(new Set(codes).size).toBe(42);
    expect([...codes].sort()).toEqual(COUNTIES.map((c) => c.code).sort());
    for (const c of data.counties) expect(c.name, c.code).toBe(COUNTIES.find((k) => k.code === c.code)?.name);
  });

  it('gives each county its SIRUTA code (county number + check digit), or null', () => {
    for (const c of data.counties) {
      if (c.siruta === null) continue;
      const jud = Number(Object.entries(JUD_COUNTIES).find(([, k]) => k.code === c.code)?.[0]);
      expect(Math.floor(c.siruta / 10), c.code).toBe(jud);
      expect(isValidSirutaCode(c.siruta), c.code).toBe(true);
    }
    expect(data.counties.find((c) => c.code === 'AB')?.siruta).toBe(10);
    expect(data.counties.find((c) => c.code === 'B')?.siruta).toBe(403);
  });

  it('sorts counties and cities by name (Romanian collation)', () => {
    const names = data.counties.map((c) => c.name);
    expect(names).toEqual([...names].sort(collator.compare));
    for (const c of data.counties) {
      const cities = c.cities.map((city) => city.name);
      expect(cities, c.code).toEqual([...cities].sort(collator.compare));
    }
  });

  it('uses only the known kinds and null or valid SIRUTA codes', () => {
    for (const c of data.counties) {
      for (const city of c.cities) {
        expect(['municipiu', 'oras', 'comuna', 'sector'], `${c.code} ${city.name}`).toContain(city.kind);
        if (city.siruta !== null) expect(isValidSirutaCode(city.siruta), `${c.code} ${city.name}`).toBe(true);
      }
    }
  });

  it('has no duplicate (county, name, kind)', () => {
    const keys = data.counties.flatMap((c) => c.cities.map((city) => `${c.code}|${city.name}|${city.kind}`));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('writes ș ț with comma below, never the cedilla ş ţ, and trims names', () => {
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toMatch(/[şţŞŢ]|\u0327/);
    for (const c of data.counties) {
      for (const city of c.cities) {
        expect(city.name, c.code).toBe(city.name.trim());
        expect(city.name, c.code).toMatch(/^[A-ZĂÂÎȘȚ0-9]/);
      }
    }
  });

  it('has 103 municipalities and 217 towns (the official totals; "about 216")', () => {
    expect(count('municipiu')).toBe(103);
    expect(count('oras')).toBe(217);
    expect(Math.abs(count('oras') - 216)).toBeLessThanOrEqual(3);
  });

  it('has the expected number of municipalities and towns in each county', () => {
    expect(Object.keys(URBAN_COUNTS).sort()).toEqual(COUNTIES.map((c) => c.code).sort());
    for (const [code, [municipii, orase]] of Object.entries(URBAN_COUNTS)) {
      expect([count('municipiu', code), count('oras', code)], code).toEqual([municipii, orase]);
    }
  });

  it('has a municipality in every county but Ilfov, whose seat Buftea is a town', () => {
    for (const c of data.counties) {
      const n = c.cities.filter((city) => city.kind === 'municipiu').length;
      if (c.code === 'IF') expect(n).toBe(0);
      else expect(n, c.code).toBeGreaterThanOrEqual(1);
    }
  });

  it('has București as a municipality with its 6 sectors', () => {
    const b = data.counties.find((c) => c.code === 'B');
    expect(b?.cities).toEqual([
      { name: 'București', kind: 'municipiu', siruta: null },
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ name: `Sectorul ${n}`, kind: 'sector', siruta: null })),
    ]);
    expect(count('sector')).toBe(6);
  });

  it('puts towns that are easy to misplace in the right county', () => {
    for (const town of ['Otopeni', 'Voluntari', 'Popești-Leordeni', 'Buftea', 'Pantelimon', 'Bragadiru', 'Chitila', 'Măgurele']) {
      expect(countyOf(town), town).toEqual(['IF']);
    }
    expect(countyOf('Băile Herculane')).toEqual(['CS']);
    expect(countyOf('Sovata')).toEqual(['MS']);
    expect(countyOf('Băile Tușnad')).toEqual(['HR']);
    expect(countyOf('Bolintin-Vale')).toEqual(['GR']);
    expect(countyOf('Mihăilești')).toEqual(['GR']);
    expect(countyOf('Fundulea')).toEqual(['CL']);
    expect(countyOf('Slănic-Moldova')).toEqual(['BC']);
    expect(countyOf('Slănic')).toEqual(['PH']);
    expect(countyOf('Victoria')).toEqual(['BV']);
    expect(countyOf('Ștefănești').sort()).toEqual(['AG', 'BT']);
    expect(countyOf('Negrești')).toEqual(['VS']);
    expect(countyOf('Negrești-Oaș')).toEqual(['SM']);
    expect(countyOf('Covasna')).toEqual(['CV']);
    expect(countyOf('Vulcan', 'municipiu')).toEqual(['HD']);
    expect(countyOf('Câmpulung', 'municipiu')).toEqual(['AG']);
    expect(countyOf('Câmpulung Moldovenesc', 'municipiu')).toEqual(['SV']);
    expect(countyOf('Drobeta-Turnu Severin', 'municipiu')).toEqual(['MH']);
    expect(countyOf('Florești', 'oras')).toEqual([]); // Florești (Cluj) is a commune
  });
});
