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
 * totals: 103 municipii, 217 orașe; SIRUTA 2025 lists Băneasa, Constanța, as a commune: 216). Ilfov has no municipality: its
 * seat, Buftea, is an oraș (SIRUTA type 5, "oraș reședință de județ").
 */
const URBAN_COUNTS: Record<string, [number, number]> = {
  AB: [4, 7], AR: [1, 9], AG: [3, 4], BC: [3, 5], BH: [4, 6], BN: [1, 3], BT: [2, 5], BV: [4, 6],
  BR: [1, 3], B: [1, 0], BZ: [2, 3], CS: [2, 6], CL: [2, 3], CJ: [5, 1], CT: [3, 8], CV: [2, 3],
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

  it('uses only the known kinds and SIRUTA codes, each once; a village names a unit of its county', () => {
    const seen = new Set<number>();
    const checked = data.counties.flatMap((c) => c.cities).filter((city) => isValidSirutaCode(city.siruta as number));
    expect(checked.length).toBe(data.counties.flatMap((c) => c.cities).length - 77);
    // 16,618 rows: the problems are collected and compared once (one expect per row took seconds on a busy machine).
    const problems: string[] = [];
    const kinds = ['municipiu', 'oras', 'comuna', 'sector', 'sat'];
    for (const c of data.counties) {
      const units = new Set(c.cities.filter((city) => city.kind !== 'sat').map((city) => city.siruta));
      for (const city of c.cities) {
        const at = `${c.code} ${city.name}`;
        if (!kinds.includes(city.kind)) problems.push(`${at}: kind ${city.kind}`);
        // Most codes carry INS's check digit; 77 units created later (e.g. Cut, Alba: 9019) do not, and are official all the same.
        if (!(Number.isInteger(city.siruta) && (city.siruta as number) > 0)) problems.push(`${at}: SIRUTA ${city.siruta}`);
        if (seen.has(city.siruta as number)) problems.push(`${city.siruta} twice`);
        seen.add(city.siruta as number);
        if (city.kind === 'sat' && !units.has(city.parentSiruta as number)) problems.push(`${at}: parent ${city.parentSiruta} is not a unit of the county`);
        if (city.kind !== 'sat' && city.parentSiruta !== undefined) problems.push(`${at}: a unit with a parent`);
        if (city.postalCode !== undefined && !/^\d{6}$/.test(city.postalCode)) problems.push(`${at}: postal code ${city.postalCode}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has the counts of the register (DATA-SOURCES): 42 counties, 3,181 units, 13,431 villages and component localities', () => {
    expect(data.counts).toEqual({ counties: 42, municipiu: 103, oras: 216, sector: 6, comuna: 2862, sat: 13431 });
    expect(count('municipiu') + count('oras') + count('comuna')).toBe(3181);
    expect(count('sat')).toBe(13755 - 6 - 102 - 216);
    // County Alba: 78 units and 716 localities, of which 11 are the municipalities and towns themselves.
    const alba = data.counties.find((c) => c.code === 'AB')!;
    expect(alba.cities.filter((c) => c.kind !== 'sat')).toHaveLength(78);
    expect(alba.cities.filter((c) => c.kind === 'sat')).toHaveLength(716 - 11);
    expect(alba.cities.find((c) => c.siruta === 2256)).toEqual({ name: 'Rogoz', kind: 'sat', siruta: 2256, parent: 'Albac', parentSiruta: 2130, postalCode: '517018' });
  });

  it('keeps villages of the same name in one county apart (385 names repeat, 866 rows)', () => {
    let names = 0;
    let rows = 0;
    for (const c of data.counties) {
      const byName = new Map<string, number>();
      for (const city of c.cities.filter((x) => x.kind === 'sat')) byName.set(city.name, (byName.get(city.name) ?? 0) + 1);
      for (const n of byName.values()) if (n > 1) {
        names++;
        rows += n;
      }
    }
    expect(names).toBeGreaterThan(300);
    expect(rows).toBeGreaterThan(2 * names - 1);
  });

  it('writes names in today\'s spelling: â inside words, not the î of before 1993', () => {
    const inside = data.counties.flatMap((c) => c.cities.filter((city) => /\p{L}î\p{L}/u.test(city.name)).map((city) => `${c.code} ${city.name}`));
    expect(inside).toEqual([]);
    expect(countyOf('Câmpeni')).toEqual(['AB']);
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

  it('has 103 municipalities and 216 towns (SIRUTA 2025; Băneasa, Constanța, is a commune there)', () => {
    expect(count('municipiu')).toBe(103);
    expect(count('oras')).toBe(216);
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
      { name: 'București', kind: 'municipiu', siruta: 179132 },
      ...[179141, 179150, 179169, 179178, 179187, 179196].map((siruta, i) => ({ name: `Sectorul ${i + 1}`, kind: 'sector', siruta })),
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
