import { describe, it, expect } from 'vitest';
import {
  JUD_COUNTIES,
  countySirutaCode,
  decodeSirutaBytes,
  formatLocalitiesJson,
  isValidSirutaCode,
  normaliseDiacritics,
  parseSirutaCsv,
  titleCaseRo,
  countsOf,
  modernSpelling,
  postalCodeOf,
} from '../../server/db/import-siruta';
import { COUNTIES } from '@/core/counties';

/**
 * A hand-made extract in the shape of the 2024 file on data.gov.ro (UTF-8, comma-separated,
 * cedilla ş ţ as INS writes them): Alba with a county-seat municipality, another municipality,
 * a town and a commune with its villages; and București with its sectors.
 */
const UTF8_CSV = [
  'SIRUTA,DENLOC,CODP,JUD,SIRSUP,TIP,NIV,MED,REGIUNE,FSJ,FSL',
  '10,JUDEŢUL ALBA,0,1,1,40,1,0,7,1,0100000000000',
  '1017,MUNICIPIUL ALBA IULIA,0,1,10,1,2,1,7,1,0110040000000',
  '1026,ALBA IULIA,510005,1,1017,9,3,1,7,1,0110040100007',
  '1035,BĂRĂBANŢ,510001,1,1017,10,3,1,7,1,0110040500032',
  '1213,MUNICIPIUL AIUD,0,1,10,4,2,1,7,1,0120039000000',
  '1222,AIUD,515200,1,1213,9,3,1,7,1,0120039100005',
  '1277,CIUMBRUD,515202,1,1213,11,3,1,7,1,0120039500139',
  '2915,ORAŞ BAIA DE ARIEŞ,0,1,10,2,2,1,7,1,0130047000000',
  '2924,BAIA DE ARIEŞ,515300,1,2915,17,3,1,7,1,0130047200022',
  '2933,BRĂZEŞTI,515301,1,2915,19,3,1,7,1,0130047600079',
  '2130,ALBAC,0,1,10,3,2,3,7,1,0150001000000',
  '2149,ALBAC,517005,1,2130,22,3,3,7,1,0150001300008',
  '2158,BĂRĂŞTI,517006,1,2130,23,3,3,7,1,0150001700033',
  '2210,DUPĂ PLEŞE,517013,1,2130,23,3,3,7,1,0150001700225',
  '403,MUNICIPIUL BUCUREŞTI,0,40,1,40,1,0,8,42,4200000000000',
  '179132,MUNICIPIUL BUCUREŞTI,0,40,403,9,2,1,8,42,4263072000000',
  '179141,BUCUREŞTI SECTORUL 1,10013,40,179132,6,3,1,8,42,4263072413415',
  '179150,BUCUREŞTI SECTORUL 2,20071,40,179132,6,3,1,8,42,4263072413416',
  '179169,BUCUREŞTI SECTORUL 3,32804,40,179132,6,3,1,8,42,4263072413417',
  '179178,BUCUREŞTI SECTORUL 4,40671,40,179132,6,3,1,8,42,4263072413418',
  '179187,BUCUREŞTI SECTORUL 5,50341,40,179132,6,3,1,8,42,4263072413419',
  '179196,BUCUREŞTI SECTORUL 6,60154,40,179132,6,3,1,8,42,4263072413420',
  '',
].join('\n');

/**
 * An older-style extract: semicolon-separated, quoted fields, extra columns, CRLF line ends,
 * encoded in ISO-8859-2 (see `latin2`): Ilfov with its seat Buftea (an oraș, TIP 5), a town and a
 * commune with a particle in its name; Sibiu with Sibiu, Săliște and two communes. The codes
 * of the level-2 units here are illustrative, not the official ones.
 */
const LATIN2_CSV = [
  '"SIRUTA";"DENLOC";"CODP";"JUD";"SIRSUP";"TIP";"NIV";"MED";"REGIUNE";"FSJ";"FS2";"FS3";"FSL";"rang";"fictiv"',
  '"234";"JUDEŢUL ILFOV";"0";"23";"1";"40";"1";"0";"8";"25";"";"";"2500000000000";"";""',
  '"100138";"ORAŞ BUFTEA";"0";"23";"234";"5";"2";"1";"8";"25";"";"";"2530000000000";"III";""',
  '"179490";"ORAŞ POPEŞTI-LEORDENI";"0";"23";"234";"2";"2";"1";"8";"25";"";"";"2530100000000";"III";""',
  '"179659";"ŞTEFĂNEŞTII DE JOS";"0";"23";"234";"3";"2";"3";"8";"25";"";"";"2550000000000";"IV";""',
  '"179668";"ŞTEFĂNEŞTII DE JOS";"77175";"23";"179659";"22";"3";"3";"8";"25";"";"";"2550000300000";"IV";""',
  '"323";"JUDEŢUL SIBIU";"0";"32";"1";"40";"1";"0";"7";"34";"";"";"3400000000000";"";""',
  '"143450";"MUNICIPIUL SIBIU";"0";"32";"323";"1";"2";"1";"7";"34";"";"";"3410000000000";"II";""',
  '"144072";"ORAŞ SĂLIŞTE";"0";"32";"323";"2";"2";"1";"7";"34";"";"";"3430000000000";"III";""',
  '"145247";"ŞELIMBĂR";"0";"32";"323";"3";"2";"3";"7";"34";"";"";"3450000000000";"IV";""',
  '"145256";"RÂU SADULUI";"0";"32";"323";"3";"2";"3";"7";"34";"";"";"3450100000000";"IV";""',
].join('\r\n');

const LATIN2: Record<string, number> = {
  Ă: 0xc3, ă: 0xe3, Â: 0xc2, â: 0xe2, Î: 0xce, î: 0xee, Ş: 0xaa, ş: 0xba, Ţ: 0xde, ţ: 0xfe,
};

/** Encodes ASCII plus the Romanian letters of ISO-8859-2 (which has only the cedilla ş ţ). */
function latin2(text: string): Uint8Array {
  return Uint8Array.from([...text], (ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x80) return code;
    const byte = LATIN2[ch];
    if (byte === undefined) throw new Error(`not in the fixture's Latin-2 table: ${ch}`);
    return byte;
  });
}

describe('normaliseDiacritics', () => {
  it('turns cedilla ş ţ into comma-below ș ț, precomposed or combining', () => {
    expect(normaliseDiacritics('Bucureşti, Ţăndărei, ŞTEI, Piteşti')).toBe('București, Țăndărei, ȘTEI, Pitești');
    expect(normaliseDiacritics('Tim\u0069s\u0327oara T\u0327')).toBe('Timișoara Ț');
    expect(normaliseDiacritics('Brașov și Ținutul')).toBe('Brașov și Ținutul');
  });
});

describe('titleCaseRo', () => {
  it.each([
    ['ALBA IULIA', 'Alba Iulia'],
    ['SFÂNTU GHEORGHE', 'Sfântu Gheorghe'],
    ['BAIA DE ARIEŞ', 'Baia de Arieș'],
    ['VALEA LUI MIHAI', 'Valea lui Mihai'],
    ['CÂMPULUNG LA TISA', 'Câmpulung la Tisa'],
    ['PODU LUI PAUL', 'Podu lui Paul'],
    ['DROBETA-TURNU SEVERIN', 'Drobeta-Turnu Severin'],
    ['POPEŞTI-LEORDENI', 'Popești-Leordeni'],
    ['TĂUŢII-MĂGHERĂUŞ', 'Tăuții-Măgherăuș'],
    ['SÂNGEORGIU DE PĂDURE', 'Sângeorgiu de Pădure'],
    ['SECTORUL 1', 'Sectorul 1'],
    ['I. L. CARAGIALE', 'I. L. Caragiale'],
    ['23 AUGUST', '23 August'],
    ['DE JOS', 'De Jos'],
    ['ÎNTORSURA BUZĂULUI', 'Întorsura Buzăului'],
    ['  ŞTEI  ', 'Ștei'],
  ])('%s → %s', (input, expected) => {
    expect(titleCaseRo(input)).toBe(expected);
  });
});

describe('SIRUTA codes', () => {
  it('checks the check digit', () => {
    for (const code of [10, 29, 234, 396, 403, 519, 528, 1017, 1213, 1874, 2130, 179132, 179141, 179196]) {
      expect(isValidSirutaCode(code), String(code)).toBe(true);
    }
    for (const code of [11, 1018, 179133, 0, -10, 1234567]) expect(isValidSirutaCode(code), String(code)).toBe(false);
  });

  it('gives the county codes', () => {
    expect(countySirutaCode(1)).toBe(10);
    expect(countySirutaCode(23)).toBe(234);
    expect(countySirutaCode(39)).toBe(396);
    expect(countySirutaCode(40)).toBe(403);
  });

  it('maps every JUD number to the county of src/core/counties', () => {
    const table = Object.entries(JUD_COUNTIES).map(([jud, c]) => ({ id: Number(jud), code: c.code, name: c.name }));
    expect(table).toEqual([...COUNTIES]);
    expect(table).toHaveLength(42);
  });
});

describe('decodeSirutaBytes', () => {
  it('reads UTF-8 (dropping a BOM)', () => {
    const bytes = new TextEncoder().encode('\uFEFFSIRUTA,DENLOC\n1017,MUNICIPIUL ALBA IULIA ŞŢ');
    expect(decodeSirutaBytes(bytes)).toBe('SIRUTA,DENLOC\n1017,MUNICIPIUL ALBA IULIA ŞŢ');
  });

  it('falls back to ISO-8859-2 when the bytes are not UTF-8', () => {
    expect(decodeSirutaBytes(latin2('ORAŞ SĂLIŞTE; ŢÂÎ'))).toBe('ORAŞ SĂLIŞTE; ŢÂÎ');
  });
});

describe('parseSirutaCsv', () => {
  it('lists counties with their municipalities, towns, communes and sectors', () => {
    const file = parseSirutaCsv(UTF8_CSV);
    expect(file.source).toMatch(/SIRUTA/);
    expect(file.counties.map((c) => [c.code, c.name, c.siruta])).toEqual([
      ['AB', 'Alba', 10],
      ['B', 'București', 403],
    ]);
    expect(file.counties[0].cities).toEqual([
      { name: 'Aiud', kind: 'municipiu', siruta: 1213 },
      { name: 'Alba Iulia', kind: 'municipiu', siruta: 1017 },
      { name: 'Albac', kind: 'comuna', siruta: 2130 },
      { name: 'Baia de Arieș', kind: 'oras', siruta: 2915 },
    ]);
    expect(file.counties[1].cities).toEqual([
      { name: 'București', kind: 'municipiu', siruta: 179132 },
      ...[1, 2, 3, 4, 5, 6].map((n) => ({ name: `Sectorul ${n}`, kind: 'sector', siruta: [179141, 179150, 179169, 179178, 179187, 179196][n - 1] })),
    ]);
  });

  it('adds villages and component localities with --with-villages', () => {
    const file = parseSirutaCsv(UTF8_CSV, { withVillages: true, source: 'test' });
    expect(file.source).toBe('test');
    const alba = file.counties[0].cities;
    expect(alba.filter((c) => c.kind === 'sat')).toEqual([
      { name: 'Albac', kind: 'sat', siruta: 2149, parent: 'Albac', parentSiruta: 2130, postalCode: '517005' },
      { name: 'Bărăbanț', kind: 'sat', siruta: 1035, parent: 'Alba Iulia', parentSiruta: 1017, postalCode: '510001' },
      { name: 'Bărăști', kind: 'sat', siruta: 2158, parent: 'Albac', parentSiruta: 2130, postalCode: '517006' },
      { name: 'Brăzești', kind: 'sat', siruta: 2933, parent: 'Baia de Arieș', parentSiruta: 2915, postalCode: '515301' },
      { name: 'Ciumbrud', kind: 'sat', siruta: 1277, parent: 'Aiud', parentSiruta: 1213, postalCode: '515202' },
      { name: 'După Pleșe', kind: 'sat', siruta: 2210, parent: 'Albac', parentSiruta: 2130, postalCode: '517013' },
    ]);
    // The seats of municipalities and towns (TIP 9, 17) are the cities themselves: not repeated.
    expect(alba.filter((c) => c.name === 'Alba Iulia' || c.name === 'Aiud').map((c) => c.kind)).toEqual(['municipiu', 'municipiu']);
    // Sectors stay sectors.
    expect(file.counties[1].cities.filter((c) => c.kind === 'sector')).toHaveLength(6);
    expect(file.counties[1].cities.filter((c) => c.kind === 'sat')).toHaveLength(0);
  });

  it('reads the semicolon-separated UTF-8 export with a NUTS column (2025), villages of the same name in one county kept apart', () => {
    const csv = [
      'SIRUTA;DENLOC;CODP;JUD;SIRSUP;TIP;NIV;MED;REGIUNE;FSJ;FSL;NUTS',
      '10;JUDEȚUL ALBA;0;1;1;40;1;0;7;1;0100000000000;RO121',
      '2130;ALBAC;0;1;10;3;2;3;7;1;0150001000000;RO121',
      '2256;ROGOZ;517018;1;2130;23;3;3;7;1;0150001700530;RO121',
      '2265;VALEA MARE;517022;1;2130;23;3;3;7;1;0150001700531;RO121',
      '4981;ÎNTREGALDE;0;1;10;3;2;3;7;1;0150029000000;RO121',
      '5005;VALEA MARE;517366;1;4981;23;3;3;7;1;0150029300331;RO121',
    ].join('\n');
    const file = parseSirutaCsv(csv, { withVillages: true });
    expect(file.counties[0].cities.filter((c) => c.name === 'Valea Mare')).toEqual([
      { name: 'Valea Mare', kind: 'sat', siruta: 2265, parent: 'Albac', parentSiruta: 2130, postalCode: '517022' },
      { name: 'Valea Mare', kind: 'sat', siruta: 5005, parent: 'Întregalde', parentSiruta: 4981, postalCode: '517366' },
    ]);
    expect(countsOf(file)).toEqual({ counties: 1, municipiu: 0, oras: 0, sector: 0, comuna: 2, sat: 3 });
  });

  it('writes the old spelling of before 1993 in today\'s (î inside a word is â) and pads postal codes to six digits', () => {
    expect(modernSpelling('CÎMPENI')).toBe('CÂMPENI');
    expect(modernSpelling('PÎCLIȘA')).toBe('PÂCLIȘA');
    expect(modernSpelling('ÎNTREGALDE')).toBe('ÎNTREGALDE');
    expect(modernSpelling('VALEA ÎNDĂRĂT')).toBe('VALEA ÎNDĂRĂT');
    expect(titleCaseRo('CÎMPENI')).toBe('Câmpeni');
    expect(titleCaseRo('TÎRGU MUREŞ')).toBe('Târgu Mureș');
    expect(postalCodeOf('10013')).toBe('010013');
    expect(postalCodeOf('517018')).toBe('517018');
    expect(postalCodeOf('0')).toBeUndefined();
    expect(postalCodeOf('')).toBeUndefined();
    const old = parseSirutaCsv('SIRUTA;DENLOC;CODP;JUD;SIRSUP;TIP;NIV\n10;JUDEŢUL ALBA;0;1;1;40;1\n1883;ORAŞ CÎMPENI;0;1;10;2;2\n', {});
    expect(old.counties[0].cities).toEqual([{ name: 'Câmpeni', kind: 'oras', siruta: 1883 }]);
  });

  it('reads a semicolon-separated, quoted, Latin-2 file with CRLF lines', () => {
    const file = parseSirutaCsv(decodeSirutaBytes(latin2(LATIN2_CSV)));
    expect(file.counties.map((c) => [c.code, c.name, c.siruta])).toEqual([
      ['IF', 'Ilfov', 234],
      ['SB', 'Sibiu', 323],
    ]);
    expect(file.counties[0].cities).toEqual([
      { name: 'Buftea', kind: 'oras', siruta: 100138 },
      { name: 'Popești-Leordeni', kind: 'oras', siruta: 179490 },
      { name: 'Ștefăneștii de Jos', kind: 'comuna', siruta: 179659 },
    ]);
    expect(file.counties[1].cities).toEqual([
      { name: 'Râu Sadului', kind: 'comuna', siruta: 145256 },
      { name: 'Săliște', kind: 'oras', siruta: 144072 },
      { name: 'Sibiu', kind: 'municipiu', siruta: 143450 },
      { name: 'Șelimbăr', kind: 'comuna', siruta: 145247 },
    ]);
    expect(JSON.stringify(file)).not.toMatch(/[şţŞŢ]/);
  });

  it('rejects a file without the SIRUTA columns or with an unknown county', () => {
    expect(() => parseSirutaCsv('')).toThrow(/empty/);
    expect(() => parseSirutaCsv('SIRUTA,DENLOC,JUD\n10,JUDEŢUL ALBA,1')).toThrow(/column SIRSUP/);
    expect(() => parseSirutaCsv('SIRUTA,DENLOC,JUD,SIRSUP,TIP,NIV\n999,JUDEŢUL X,45,1,40,1')).toThrow(/JUD=45/);
    expect(() => parseSirutaCsv('SIRUTA,DENLOC,JUD,SIRSUP,TIP,NIV\nabc,X,1,10,3,2')).toThrow(/line 2/);
  });
});

describe('formatLocalitiesJson', () => {
  it('writes JSON that reads back the same, one locality per line', () => {
    const file = parseSirutaCsv(UTF8_CSV, { withVillages: true });
    const text = formatLocalitiesJson(file);
    expect(JSON.parse(text)).toEqual({ ...file, counts: countsOf(file) });
    expect(text).toContain('\n        { "name": "Albac", "kind": "comuna", "siruta": 2130 },\n');
    expect(text.endsWith('}\n')).toBe(true);
  });
});
