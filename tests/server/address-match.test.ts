import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { findLocality, matchIdAddress, parseIdAddress, titleCase, type LocalityRow } from '../../server/identity/address-match';
import { documentAddressValues } from '../../server/identity/service';
import { ADDRESS_PLACES, simulatedAddress } from '../../server/identity/romanian-person';
import { testApp } from './helpers';

const EMPTY_PARTS = { street: '', number: '', building: '', entrance: '', floor: '', apartment: '', postal_code: '' };

describe('parseIdAddress: an identity card address into its parts', () => {
  it('urban: municipality, street, number, apartment, county', () => {
    expect(parseIdAddress('Mun. Cluj-Napoca, Str. Memorandumului nr. 10, ap. 3, Jud. Cluj')).toEqual({
      ...EMPTY_PARTS,
      county: 'Cluj',
      unit: { kind: 'municipiu', name: 'Cluj-Napoca' },
      village: null,
      sector: null,
      street: 'Memorandumului',
      number: '10',
      apartment: '3',
    });
  });

  it('rural: commune, village and number, without a street', () => {
    expect(parseIdAddress('Com. Albac, Sat Rogoz nr. 12, Jud. Alba')).toEqual({
      ...EMPTY_PARTS,
      county: 'Alba',
      unit: { kind: 'comuna', name: 'Albac' },
      village: 'Rogoz',
      sector: null,
      number: '12',
    });
  });

  it('București: the sector, a block of flats, a street that names its kind', () => {
    expect(parseIdAddress('Mun. București, Sec. 3, Bd. Unirii nr. 28, bl. A2, sc. B, et. 3, ap. 12')).toEqual({
      county: null,
      unit: { kind: 'municipiu', name: 'București' },
      village: null,
      sector: 3,
      street: 'Bd. Unirii',
      number: '28',
      building: 'A2',
      entrance: 'B',
      floor: '3',
      apartment: '12',
      postal_code: '',
    });
    expect(parseIdAddress('Municipiul Bucureşti, Sectorul 6, Bulevardul Iuliu Maniu nr. 7').street).toBe('Bd. Iuliu Maniu');
    expect(parseIdAddress('Calea Victoriei nr. 12, Sector 1, București')).toMatchObject({ sector: 1, street: 'Calea Victoriei', number: '12' });
  });

  it('upper case without diacritics, dots without spaces, no commas, any order', () => {
    expect(parseIdAddress('JUD.CJ MUN.CLUJ-NAPOCA STR.MIHAI VITEAZU NR.10A BL.M4 SC.2 ET.PARTER AP.1')).toEqual({
      county: 'CJ',
      unit: { kind: 'municipiu', name: 'CLUJ-NAPOCA' },
      village: null,
      sector: null,
      street: 'Mihai Viteazu',
      number: '10A',
      building: 'M4',
      entrance: '2',
      floor: 'Parter',
      apartment: '1',
      postal_code: '',
    });
    expect(parseIdAddress('SAT ROGOZ NR. 12 COM. ALBAC JUD. ALBA')).toMatchObject({ county: 'ALBA', unit: { kind: 'comuna', name: 'ALBAC' }, village: 'ROGOZ', number: '12' });
    expect(parseIdAddress('MUN.BUCURESTI SEC.3 STR.LIPSCANI NR.5')).toMatchObject({ unit: { kind: 'municipiu', name: 'BUCURESTI' }, sector: 3, street: 'Lipscani' });
    expect(parseIdAddress('Mun.Cluj-Napoca (Jud.CJ) Str.Memorandumului nr.10 ap.3')).toMatchObject({ county: 'CJ', unit: { name: 'Cluj-Napoca' }, street: 'Memorandumului', number: '10', apartment: '3' });
    expect(parseIdAddress('Oraș Câmpeni, Str. 1 DECEMBRIE 1918 nr. 4, Județul Alba')).toMatchObject({ unit: { kind: 'oras', name: 'Câmpeni' }, street: '1 Decembrie 1918' });
    expect(parseIdAddress('ORS. CAMPENI STR. STEFAN CEL MARE SI SFANT NR. 4 JUD. AB').street).toBe('Stefan cel Mare si Sfant');
  });

  it('names that start like a prefix stay names: "Sat Calea Mare", "Com. Sat-Șugatag", "Str. Al. I. Cuza"', () => {
    expect(parseIdAddress('Sat Calea Mare, Com. Cociuba Mare, Jud. Bihor')).toMatchObject({ village: 'Calea Mare', unit: { kind: 'comuna', name: 'Cociuba Mare' } });
    expect(parseIdAddress('Com. Sat-Șugatag, Sat Mănăstirea, Jud. Maramureș')).toMatchObject({ unit: { name: 'Sat-Șugatag' }, village: 'Mănăstirea' });
    expect(parseIdAddress('Str. Al. I. Cuza nr. 5, Mun. Iași, Jud. Iași')).toMatchObject({ street: 'Str. Al. I. Cuza', number: '5' });
    expect(parseIdAddress('Jud. Satu Mare, Mun. Satu Mare, Str. Mihai Eminescu nr. 1')).toMatchObject({ county: 'Satu Mare', unit: { name: 'Satu Mare' } });
  });

  it('a postal code and the country are kept aside; a locality without prefix is the unit', () => {
    expect(parseIdAddress('Str. Memorandumului nr. 28, Mun. Cluj-Napoca, Jud. Cluj, 400114, România')).toMatchObject({ postal_code: '400114', unit: { name: 'Cluj-Napoca' } });
    expect(parseIdAddress('Cluj-Napoca, Str. Memorandumului nr 1')).toMatchObject({ unit: { kind: null, name: 'Cluj-Napoca' }, street: 'Memorandumului', number: '1' });
    // A number without "nr." after the street; a street named after a date keeps its number.
    expect(parseIdAddress('Str. Memorandumului 10A, Mun. Cluj-Napoca')).toMatchObject({ street: 'Memorandumului', number: '10A' });
    expect(parseIdAddress('Str. 1 Decembrie 1918 nr. 3')).toMatchObject({ street: '1 Decembrie 1918', number: '3' });
    expect(parseIdAddress('Str. 1 Decembrie 1918, Or. Câmpeni')).toMatchObject({ street: '1 Decembrie 1918', number: '' });
  });

  it('anything else gives nothing much, and never throws', () => {
    expect(parseIdAddress('')).toEqual({ ...EMPTY_PARTS, county: null, unit: null, village: null, sector: null });
    for (const junk of ['\u0000\u0007 nr.', 'x'.repeat(10_000), ',,,;;;', 'Sec. 9', '🙂 Str. 🙂 nr. 🙂', 'Jud.', 'ÅÆØ ß İ']) {
      expect(() => parseIdAddress(junk)).not.toThrow();
    }
    expect(parseIdAddress('Sec. 9').sector).toBeNull();
  });

  it('titleCase only touches all-capitals text', () => {
    expect(titleCase('MIHAI VITEAZU')).toBe('Mihai Viteazu');
    expect(titleCase('Mihai VITEAZU')).toBe('Mihai VITEAZU');
  });
});

describe('findLocality: certain only with exactly one candidate', () => {
  const rows: LocalityRow[] = [
    { id: 1, countyId: 1, name: 'Albac', kind: 'comuna', parentId: null, label: 'Albac', postalCode: null },
    { id: 2, countyId: 1, name: 'Albac', kind: 'sat', parentId: 1, label: 'Albac, comuna Albac', postalCode: '517005' },
    { id: 3, countyId: 1, name: 'Costești', kind: 'sat', parentId: 1, label: 'Costești, comuna Albac', postalCode: null },
    { id: 4, countyId: 1, name: 'Poiana Vadului', kind: 'comuna', parentId: null, label: 'Poiana Vadului', postalCode: null },
    { id: 5, countyId: 1, name: 'Costești', kind: 'sat', parentId: 4, label: 'Costești, comuna Poiana Vadului', postalCode: null },
  ];
  const find = (text: string) => findLocality(rows, parseIdAddress(text));

  it('a village by name within its commune', () => {
    expect(find('Com. Poiana Vadului, Sat Costești')).toEqual({ candidates: [rows[4]], certain: true });
    expect(find('Com. Albac, Sat Albac')).toEqual({ candidates: [rows[1]], certain: true });
  });

  it('a repeated village without its commune, or outside the commune named, is not certain', () => {
    expect(find('Sat Costesti')).toEqual({ candidates: [rows[2], rows[4]], certain: false });
    expect(find('Com. Poiana Vadului, Sat Albac')).toEqual({ candidates: [rows[1], rows[3]], certain: false });
  });

  it('a unit by name and kind; a name without prefix may be the commune or its village', () => {
    expect(find('Com. ALBAC')).toEqual({ candidates: [rows[0]], certain: true });
    expect(find('Albac')).toEqual({ candidates: [rows[0], rows[1]], certain: false });
    expect(find('Com. Necunoscuta, Sat Nicăieri')).toEqual({ candidates: [], certain: false });
  });
});

describe('matchIdAddress against the SIRUTA register', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it('"Com. Albac, Sat Rogoz, Jud. Alba" is Rogoz, comuna Albac', async () => {
    const match = await matchIdAddress(app.db, 'Com. Albac, Sat Rogoz, Jud. Alba');
    expect(match.county).toMatchObject({ id: 1, name: 'Alba', code: 'AB' });
    expect(match.city).toMatchObject({ name: 'Rogoz', kind: 'sat', label: 'Rogoz, comuna Albac', postalCode: '517018' });
    expect(match.city_id).toBe(match.city!.id);
    expect(match.candidates).toHaveLength(1);
  });

  it('the same in capitals, without diacritics, with the county code', async () => {
    const match = await matchIdAddress(app.db, 'JUD.AB COM.ALBAC SAT ROGOZ NR.12');
    expect(match).toMatchObject({ county_id: 1, city: { label: 'Rogoz, comuna Albac' }, number: '12' });
  });

  it('a village name that repeats within its county is resolved by its commune', async () => {
    const albac = await matchIdAddress(app.db, 'Com. Albac, Sat Costești, Jud. Alba');
    const poiana = await matchIdAddress(app.db, 'Com. Poiana Vadului, Sat Costesti, Jud. Alba');
    expect(albac.city?.label).toBe('Costești, comuna Albac');
    expect(poiana.city?.label).toBe('Costești, comuna Poiana Vadului');
    expect(albac.city_id).not.toBe(poiana.city_id);
  });

  it('without its commune it is not certain: the county is, the candidates are both villages', async () => {
    const match = await matchIdAddress(app.db, 'Sat Costești nr. 7, Jud. Alba');
    expect(match).toMatchObject({ county_id: 1, city_id: null, city: null, number: '7' });
    expect(match.candidates.map((c) => c.label).sort()).toEqual(['Costești, comuna Albac', 'Costești, comuna Poiana Vadului']);
  });

  it('an unknown village: the county, and the commune named as the only hint, not certain', async () => {
    const match = await matchIdAddress(app.db, 'Com. Albac, Sat Nicăieri nr. 1, Jud. Alba');
    expect(match).toMatchObject({ county_id: 1, city_id: null, city: null });
    expect(match.candidates.map((c) => c.label)).toEqual(['Albac']);
    const nowhere = await matchIdAddress(app.db, 'Com. Nicăieri, Sat Niciunde, Jud. Alba');
    expect(nowhere).toMatchObject({ county_id: 1, city_id: null, candidates: [] });
  });

  it('a municipality, a town, a village of a municipality, a sector of București', async () => {
    const cluj = await matchIdAddress(app.db, 'Mun. Cluj-Napoca, Str. Memorandumului nr. 10, ap. 3, Jud. Cluj');
    expect(cluj).toMatchObject({ county: { name: 'Cluj' }, city: { name: 'Cluj-Napoca', kind: 'municipiu' }, street: 'Memorandumului', number: '10', apartment: '3' });
    const campeni = await matchIdAddress(app.db, 'ORS. CIMPENI, STR. HOREA NR. 2, JUD. ALBA');
    expect(campeni.city).toMatchObject({ name: 'Câmpeni', kind: 'oras' });
    const barabant = await matchIdAddress(app.db, 'Mun. Alba Iulia, Sat Bărăbanț, Str. Principală nr. 3, Jud. Alba');
    expect(barabant.city?.label).toBe('Bărăbanț, municipiul Alba Iulia');
    const sector = await matchIdAddress(app.db, 'MUN.BUCURESTI SEC.3 STR.LIPSCANI NR.5');
    expect(sector).toMatchObject({ county: { code: 'B' }, city: { name: 'Sectorul 3', kind: 'sector' }, street: 'Lipscani' });
  });

  it('without a county: a name unique in the country is certain, and gives its county', async () => {
    const match = await matchIdAddress(app.db, 'Mun. Cluj-Napoca, Str. Memorandumului nr. 28');
    expect(match).toMatchObject({ county: { name: 'Cluj' }, city: { name: 'Cluj-Napoca' } });
  });

  it('every address the simulator writes matches one locality with a street and a number', async () => {
    const seeds = Array.from({ length: 120 }, (_, i) => `seed-${i}`);
    for (const seed of seeds) {
      const text = simulatedAddress(seed);
      const match = await matchIdAddress(app.db, text);
      expect(match.city, text).not.toBeNull();
      expect(match.street && match.number, text).toBeTruthy();
    }
    for (const seed of seeds.slice(0, 30)) {
      const streetless = await matchIdAddress(app.db, simulatedAddress(seed, 'no-street'));
      expect(streetless.city?.kind).toBe('sat');
      expect(streetless.street).toBe('');
      const uncertain = await matchIdAddress(app.db, simulatedAddress(seed, 'uncertain'));
      expect(uncertain.county_id).not.toBeNull();
      expect(uncertain.city_id).toBeNull();
      expect(uncertain.candidates.length).toBeGreaterThan(1);
    }
    // Every place of the simulator's lists exists.
    for (const place of ADDRESS_PLACES.urban) {
      expect((await matchIdAddress(app.db, `${place.unit}, Str. X nr. 1, Jud. ${place.county}`)).city, place.unit).not.toBeNull();
    }
    for (const place of ADDRESS_PLACES.rural) {
      const match = await matchIdAddress(app.db, `${place.unit}, Sat ${place.village} nr. 1, Jud. ${place.county}`);
      expect(match.city?.kind, place.village).toBe('sat');
    }
  });
});

describe('documentAddressValues: the profile fields of the card address', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it('certain and complete: saved as the address form saves it, with the village postal code', async () => {
    const text = 'Com. Albac, Sat Rogoz, Str. Principală nr. 12, Jud. Alba';
    const values = await documentAddressValues(app.db, text, {});
    expect(values).toEqual({
      document_address: text,
      county_id: 1,
      county: 'Alba',
      city_id: expect.any(Number),
      city: 'Rogoz, comuna Albac',
      street: 'Principală',
      number: '12',
      building: '',
      entrance: '',
      floor: '',
      apartment: '',
      postal_code: '517018',
      address_1: 'Str. Principală nr. 12',
      address_2: 'Rogoz, comuna Albac, județul Alba, 517018',
    });
  });

  it('a village without a street: county, locality and number for the form, no address lines', async () => {
    const values = await documentAddressValues(app.db, 'Com. Albac, Sat Rogoz nr. 12, Jud. Alba', {});
    expect(values).toEqual({ document_address: 'Com. Albac, Sat Rogoz nr. 12, Jud. Alba', county_id: 1, county: 'Alba', city_id: expect.any(Number), city: 'Rogoz, comuna Albac', number: '12', postal_code: '517018' });
  });

  it('not certain: the county and the street, the locality left for the applicant; stale card fields are cleared', async () => {
    const text = 'Sat Costești, Str. Morii nr. 7, Jud. Alba';
    const values = await documentAddressValues(app.db, text, { city_id: 5, city: 'Altceva', apartment: '4', first_name: 'Ana' });
    expect(values).toEqual({ document_address: text, county_id: 1, county: 'Alba', street: 'Morii', number: '7', city_id: null, city: '', apartment: '' });
  });

  it('a part longer than the address form accepts is not taken', async () => {
    const text = `Com. Albac, Sat Rogoz, Str. ${'Lungă'.repeat(40)} nr. 12, Jud. Alba`;
    const values = await documentAddressValues(app.db, text, {});
    expect(values).toMatchObject({ city: 'Rogoz, comuna Albac', number: '12' });
    expect(values.street).toBeUndefined();
    expect(values.address_1).toBeUndefined();
  });

  it('a home address already saved is kept: only the text is recorded', async () => {
    const profile = { county_id: 12, city_id: 3, street: 'Memorandumului', number: '28' };
    expect(await documentAddressValues(app.db, 'Com. Albac, Sat Rogoz nr. 12, Jud. Alba', profile)).toEqual({ document_address: 'Com. Albac, Sat Rogoz nr. 12, Jud. Alba' });
  });
});
