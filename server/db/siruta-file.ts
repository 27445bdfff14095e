/**
 * Imports the official SIRUTA register (INS, published on data.gov.ro) into
 * `server/db/seed/localities.json`.
 *
 *   npm run import:siruta -- path/to/siruta.csv [--out server/db/seed/localities.json] [--with-villages]
 *
 * The input is the CSV export of SIRUTA as INS publishes it, e.g. (2024, UTF-8, comma-separated):
 *
 *   SIRUTA,DENLOC,CODP,JUD,SIRSUP,TIP,NIV,MED,REGIUNE,FSJ,FSL
 *   10,JUDEŢUL ALBA,0,1,1,40,1,0,7,1,0100000000000
 *   1017,MUNICIPIUL ALBA IULIA,0,1,10,1,2,1,7,1,0110040000000
 *   1026,ALBA IULIA,510005,1,1017,9,3,1,7,1,0110040100007
 *   1151,ORAŞ ABRUD,0,1,10,2,2,1,7,1,0130046000000
 *   2130,ALBAC,0,1,10,3,2,3,7,1,0150001000000
 *   2149,ALBAC,517005,1,2130,22,3,3,7,1,0150001300008
 *   ...
 *   403,MUNICIPIUL BUCUREŞTI,0,40,1,40,1,0,8,42,4200000000000
 *   179132,MUNICIPIUL BUCUREŞTI,0,40,403,9,2,1,8,42,4263072000000
 *   179141,BUCUREŞTI SECTORUL 1,10013,40,179132,6,3,1,8,42,4263072413415
 *
 * Older extracts are semicolon-separated, have more columns (FS2, FS3, rang, fictiv), may be
 * encoded in ISO-8859-2 / Windows-1250 and may spell names without diacritics or with the old
 * "î" inside words (CÎMPENI). Columns are found by their header name, so their order and any
 * extra columns do not matter; only SIRUTA, DENLOC, JUD, SIRSUP, TIP and NIV are required.
 *
 * Columns used:
 *   SIRUTA  the code of the unit (the last digit is a check digit, see `isValidSirutaCode`)
 *   DENLOC  the name, upper-case, with a prefix for counties ("JUDEŢUL "), municipalities
 *           ("MUNICIPIUL "), towns ("ORAŞ ") and sectors ("BUCUREŞTI SECTORUL 1")
 *   JUD     the county number (1–39 alphabetically, 40 București, 51 Călărași, 52 Giurgiu);
 *           see `JUD_COUNTIES` (siruta-counties.ts)
 *   SIRSUP  the SIRUTA code of the parent unit (county for level 2, municipality/town/commune
 *           for level 3)
 *   NIV     level: 1 county (and București), 2 municipality / town / commune, 3 locality inside
 *           one of those (component locality, village, and the sectors of București)
 *   TIP     locality type, per the INS nomenclature of SIRUTA types:
 *             40 județ, municipiul București (level 1)
 *              1 municipiu reședință de județ (and municipiul București)
 *              2 oraș ce aparține de județ (not the county seat)
 *              3 comună
 *              4 municipiu, altul decât reședința de județ
 *              5 oraș reședință de județ (Buftea, seat of Ilfov)
 *              6 sector al municipiului București (level 3 in the 2024 file)
 *              9 localitate componentă, reședință de municipiu (the 2024 file also gives
 *                municipiul București itself, at level 2, type 9)
 *             10 localitate componentă a unui municipiu, alta decât reședința
 *             11 sat ce aparține de municipiu
 *             17 localitate componentă, reședință a orașului
 *             18 localitate componentă a unui oraș, alta decât reședința
 *             19 sat care aparține unui oraș
 *             22 sat reședință de comună
 *             23 sat ce aparține de comună, altul decât reședința
 *
 * Output (the format of localities.json, read by server/db/seed.ts): the 42 counties sorted by
 * name (Romanian collation), each with its SIRUTA code and its `cities` sorted by name:
 * every municipiu (TIP 1, 4, and București), oraș (TIP 2, 5), comună (TIP 3) and sector (TIP 6).
 * With --with-villages, the localities inside them are added too, with kind "sat" and the name
 * and SIRUTA code of their municipality/town/commune in `parent` / `parentSiruta` (the
 * component localities of municipalities and towns, TIP 10 and 18, are listed as "sat" as well;
 * TIP 9 and 17 are left out: they are the municipality or town itself).
 */
import { decodeCentralEuropean, splitCsvLine } from './csv';
import { JUD_COUNTIES } from './siruta-counties';

export { JUD_COUNTIES } from './siruta-counties';

export type CityKind = 'municipiu' | 'oras' | 'comuna' | 'sector' | 'sat';

export interface LocalityEntry {
  name: string;
  kind: CityKind;
  siruta: number | null;
  /** Villages only: the municipality, town or commune the village belongs to (its name and SIRUTA code). */
  parent?: string;
  parentSiruta?: number;
  /** SIRUTA's postal code (CODP), six digits, where the locality has one of its own. */
  postalCode?: string;
}

export interface CountyEntry {
  code: string;
  name: string;
  siruta: number | null;
  cities: LocalityEntry[];
}

export interface LocalitiesFile {
  source: string;
  /** How many localities of each kind the file holds (written by the importer, checked by the tests). */
  counts?: Partial<Record<CityKind | 'counties', number>>;
  counties: CountyEntry[];
}

export interface ParseOptions {
  /** Also list the villages and component localities (NIV 3), with kind "sat". */
  withVillages?: boolean;
  /** The text of the `source` field of the result. */
  source?: string;
}

const BUCHAREST_JUD = 40;

/**
 * Whether the last digit of a SIRUTA code is its check digit (INS algorithm: the other digits,
 * right to left, are multiplied by 1, 2, 3, 5, 7; the digits of each product are added up;
 * the check digit is (11 − sum mod 10) mod 10). E.g. 10 (Alba), 1017 (Alba Iulia), 403 (București).
 */
export function isValidSirutaCode(code: number): boolean {
  if (!Number.isInteger(code) || code < 10 || code > 999999) return false;
  const weights = [1, 2, 3, 5, 7];
  let rest = Math.floor(code / 10);
  let sum = 0;
  for (const w of weights) {
    const product = (rest % 10) * w;
    sum += Math.floor(product / 10) + (product % 10);
    rest = Math.floor(rest / 10);
  }
  return (11 - (sum % 10)) % 10 === code % 10;
}

/** The SIRUTA code of county number `jud` (its number followed by the check digit). */
export function countySirutaCode(jud: number): number {
  for (let digit = 0; digit < 10; digit++) {
    if (isValidSirutaCode(jud * 10 + digit)) return jud * 10 + digit;
  }
  throw new Error(`no check digit for ${jud}`); // unreachable: one digit always fits
}

/**
 * Replaces the cedilla letters ş ţ Ş Ţ (the only ones Latin-2 and old fonts have) with the
 * correct Romanian comma-below letters ș ț Ș Ț, in precomposed or combining form.
 */
export function normaliseDiacritics(name: string): string {
  return name
    .normalize('NFC')
    .replace(/[sS]\u0327|[sS]\u0326/g, (m) => (m[0] === 's' ? 'ș' : 'Ș'))
    .replace(/[tT]\u0327|[tT]\u0326/g, (m) => (m[0] === 't' ? 'ț' : 'Ț'))
    .replace(/ş/g, 'ș')
    .replace(/Ş/g, 'Ș')
    .replace(/ţ/g, 'ț')
    .replace(/Ţ/g, 'Ț');
}

/**
 * Today's spelling of a name written before 1993: "î" inside a word is "â" ("CÎMPENI" → "CÂMPENI",
 * "PÎCLIȘA" → "PÂCLIȘA"); at the start or the end of a word it stays ("ÎNTREGALDE", "COBORÎ").
 */
export function modernSpelling(name: string): string {
  return name.replace(/(?<=\p{L})[îÎ](?=\p{L})/gu, (c) => (c === 'î' ? 'â' : 'Â'));
}

/** Words written in lower case inside a name ("Baia de Arieș", "Valea lui Mihai", "Câmpulung la Tisa"). */
const LOWER_CASE_WORDS = new Set(['de', 'din', 'dintre', 'pe', 'la', 'lui', 'cu', 'sub', 'și']);

/**
 * Converts an upper-case SIRUTA name to title case: "ALBA IULIA" → "Alba Iulia",
 * "SFÂNTU GHEORGHE" → "Sfântu Gheorghe", "BAIA DE ARIEŞ" → "Baia de Arieș",
 * "DROBETA-TURNU SEVERIN" → "Drobeta-Turnu Severin", "SECTORUL 1" → "Sectorul 1".
 * Particles (de, din, pe, la, lui, …) stay lower-case unless they begin the name; each part of
 * a hyphenated word is capitalised. Cedilla ş/ţ become ș/ț.
 */
export function titleCaseRo(name: string): string {
  const lower = modernSpelling(normaliseDiacritics(name)).trim().replace(/\s+/g, ' ').toLocaleLowerCase('ro');
  // Split into words and the separators between them (space, hyphen, parentheses, dot, quotes).
  const parts = lower.split(/([\s\-–(),."„”']+)/);
  let first = true;
  return parts
    .map((part) => {
      if (part === '' || /^[\s\-–(),."„”']+$/.test(part)) return part;
      const keepLower = !first && LOWER_CASE_WORDS.has(part);
      first = false;
      return keepLower ? part : part.charAt(0).toLocaleUpperCase('ro') + part.slice(1);
    })
    .join('');
}

/** The bytes of a SIRUTA file as text (UTF-8 or the Central European encodings INS used). */
export const decodeSirutaBytes = decodeCentralEuropean;

/** The delimiter of the header line: whichever of ; , and tab occurs most. */
function detectDelimiter(header: string): string {
  const counts = [';', ',', '\t'].map((d) => ({ d, n: header.split(d).length - 1 }));
  counts.sort((a, b) => b.n - a.n);
  return counts[0].n > 0 ? counts[0].d : ',';
}

/** DENLOC prefixes of level-1/level-2 units and sectors, with or without diacritics. */
const NAME_PREFIXES = [
  /^JUDE[ŢȚT]UL\s+/i,
  /^MUNICIPIUL\s+/i,
  /^ORA[ŞȘS]UL\s+/i,
  /^ORA[ŞȘS]\s+/i,
  /^BUCURE[ŞȘS]TI\s+(?=SECTORUL)/i,
];

function stripPrefix(denloc: string): string {
  let name = denloc.trim();
  for (const prefix of NAME_PREFIXES) name = name.replace(prefix, '');
  return name;
}

function kindOfUnit(tip: number, jud: number): CityKind | null {
  if (jud === BUCHAREST_JUD) return 'municipiu'; // level 2 in București is the city itself (TIP 1 or 9)
  switch (tip) {
    case 1:
    case 4:
      return 'municipiu';
    case 2:
    case 5:
      return 'oras';
    case 3:
      return 'comuna';
    default:
      return null;
  }
}

/** CODP as a six-digit postal code (București's lose their leading 0 in the file: 10013 → "010013"); 0 or empty: none. */
export function postalCodeOf(codp: string | undefined): string | undefined {
  const digits = (codp ?? '').trim();
  if (!/^\d{1,6}$/.test(digits) || Number(digits) === 0) return undefined;
  return digits.padStart(6, '0');
}

const collator = new Intl.Collator('ro', { sensitivity: 'variant', numeric: true });
const KIND_ORDER: Record<CityKind, number> = { municipiu: 0, oras: 1, sector: 2, comuna: 3, sat: 4 };

function compareLocalities(a: LocalityEntry, b: LocalityEntry): number {
  return (
    collator.compare(a.name, b.name) ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    collator.compare(a.parent ?? '', b.parent ?? '') ||
    (a.siruta ?? 0) - (b.siruta ?? 0)
  );
}

const DEFAULT_SOURCE =
  'Official SIRUTA register of INS (data.gov.ro), imported by `npm run import:siruta`: every county with ' +
  'its municipalities, towns, communes and the sectors of București.';

/**
 * Parses the text of a SIRUTA CSV into the localities.json format: the counties present in the
 * file (sorted by name), each with its municipalities, towns, communes and sectors (and, with
 * `withVillages`, its villages), sorted by name.
 */
export function parseSirutaCsv(text: string, options: ParseOptions = {}): LocalitiesFile {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new Error('SIRUTA file is empty');
  const delimiter = detectDelimiter(lines[0]);
  const header = splitCsvLine(lines[0], delimiter).map((h) => h.replace(/^\uFEFF/, '').toUpperCase());
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`SIRUTA file: column ${name} not found in header "${lines[0]}"`);
    return i;
  };
  const iSiruta = col('SIRUTA');
  const iName = col('DENLOC');
  const iJud = col('JUD');
  const iSup = col('SIRSUP');
  const iTip = col('TIP');
  const iNiv = col('NIV');
  const iPostal = header.indexOf('CODP');

  interface Row {
    siruta: number;
    denloc: string;
    jud: number;
    sup: number;
    tip: number;
    niv: number;
    postal: string | undefined;
  }
  const rows: Row[] = [];
  for (const [n, line] of lines.slice(1).entries()) {
    const f = splitCsvLine(line, delimiter);
    const num = (i: number): number => Number.parseInt(f[i] ?? '', 10);
    const row = { siruta: num(iSiruta), denloc: f[iName] ?? '', jud: num(iJud), sup: num(iSup), tip: num(iTip), niv: num(iNiv), postal: iPostal >= 0 ? postalCodeOf(f[iPostal]) : undefined };
    if (Number.isNaN(row.siruta) || Number.isNaN(row.jud) || Number.isNaN(row.tip) || Number.isNaN(row.niv)) {
      throw new Error(`SIRUTA file, line ${n + 2}: cannot read "${line}"`);
    }
    rows.push(row);
  }

  const counties = new Map<number, CountyEntry>();
  const county = (jud: number): CountyEntry => {
    let c = counties.get(jud);
    if (!c) {
      const known = JUD_COUNTIES[jud];
      if (!known) throw new Error(`SIRUTA file: unknown county number JUD=${jud}`);
      c = { code: known.code, name: known.name, siruta: null, cities: [] };
      counties.set(jud, c);
    }
    return c;
  };

  // Level 1 and 2: counties, municipalities, towns, communes.
  const units = new Map<number, LocalityEntry>();
  for (const r of rows) {
    if (r.niv === 1 || r.tip === 40) {
      county(r.jud).siruta = r.siruta;
    } else if (r.tip === 6) {
      // A sector's CODP is one street's code (București's streets have codes of their own): not the sector's.
      const entry: LocalityEntry = { name: titleCaseRo(stripPrefix(r.denloc)), kind: 'sector', siruta: r.siruta };
      county(r.jud).cities.push(entry);
    } else if (r.niv === 2) {
      const kind = kindOfUnit(r.tip, r.jud);
      if (!kind) throw new Error(`SIRUTA file: unexpected TIP=${r.tip} at level 2 for ${r.siruta} ${r.denloc}`);
      const name = r.jud === BUCHAREST_JUD ? JUD_COUNTIES[BUCHAREST_JUD].name : titleCaseRo(stripPrefix(r.denloc));
      const entry: LocalityEntry = { name, kind, siruta: r.siruta };
      units.set(r.siruta, entry);
      county(r.jud).cities.push(entry);
    }
  }

  // Level 3: villages and component localities, under their unit.
  if (options.withVillages) {
    for (const r of rows) {
      if (r.niv !== 3 || r.tip === 6 || r.tip === 9 || r.tip === 17) continue;
      const parent = units.get(r.sup);
      county(r.jud).cities.push({
        name: titleCaseRo(r.denloc),
        kind: 'sat',
        siruta: r.siruta,
        ...(parent ? { parent: parent.name, parentSiruta: r.sup } : { parentSiruta: r.sup }),
        ...(r.postal ? { postalCode: r.postal } : {}),
      });
    }
  }

  const sorted = [...counties.values()].sort((a, b) => collator.compare(a.name, b.name));
  for (const c of sorted) c.cities.sort(compareLocalities);
  return { source: options.source ?? DEFAULT_SOURCE, counties: sorted };
}

/** The number of counties and of localities of each kind. */
export function countsOf(file: LocalitiesFile): NonNullable<LocalitiesFile['counts']> {
  const counts: NonNullable<LocalitiesFile['counts']> = { counties: file.counties.length };
  for (const kind of Object.keys(KIND_ORDER) as CityKind[]) counts[kind] = 0;
  for (const c of file.counties) for (const city of c.cities) counts[city.kind] = (counts[city.kind] ?? 0) + 1;
  return counts;
}

/**
 * Serialises a localities file the way it is kept in the repository: one county header per
 * line group, one locality per line (small diffs, readable).
 */
export function formatLocalitiesJson(file: LocalitiesFile): string {
  const out: string[] = ['{', `  "source": ${JSON.stringify(file.source)},`, `  "counts": ${JSON.stringify(file.counts ?? countsOf(file))},`, '  "counties": ['];
  file.counties.forEach((c, ci) => {
    out.push('    {');
    out.push(`      "code": ${JSON.stringify(c.code)},`);
    out.push(`      "name": ${JSON.stringify(c.name)},`);
    out.push(`      "siruta": ${JSON.stringify(c.siruta)},`);
    if (c.cities.length === 0) {
      out.push('      "cities": []');
    } else {
      out.push('      "cities": [');
      c.cities.forEach((city, i) => {
        const fields = Object.entries(city)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
          .join(', ');
        out.push(`        { ${fields} }${i < c.cities.length - 1 ? ',' : ''}`);
      });
      out.push('      ]');
    }
    out.push(`    }${ci < file.counties.length - 1 ? ',' : ''}`);
  });
  out.push('  ]', '}', '');
  return out.join('\n');
}
