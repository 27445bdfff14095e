import { eq, like, or } from 'drizzle-orm';
import type { Db } from '../db';
import { cities, counties } from '../db/schema';
import { searchKey } from '../../src/core/counties';

/**
 * The home address on a Romanian identity card, as the identity provider reads it (issue 31):
 * "Com. Albac, Sat Rogoz nr. 12, Jud. Alba", "Mun. Cluj-Napoca, Str. Memorandumului nr. 10, ap. 3,
 * Jud. Cluj", "MUN.BUCURESTI SEC.3 STR.LIPSCANI NR.5". Parsed into its parts (`parseIdAddress`,
 * pure) and matched to the SIRUTA register (`matchIdAddress`): certain only when exactly one
 * locality fits; otherwise the candidates, and the applicant picks.
 */

export type UnitKind = 'municipiu' | 'oras' | 'comuna';

/** The address parts, in the profile's keys ('' when the text does not give one). */
export interface AddressParts {
  street: string;
  number: string;
  building: string;
  entrance: string;
  floor: string;
  apartment: string;
  postal_code: string;
}

export const ADDRESS_PART_KEYS = ['street', 'number', 'building', 'entrance', 'floor', 'apartment', 'postal_code'] as const;

export interface ParsedIdAddress extends AddressParts {
  /** As written: a name ("Alba", "ALBA") or a vehicle code ("AB"). */
  county: string | null;
  /** The municipality, town or commune; `kind` null for "Loc." or a locality without a prefix. */
  unit: { kind: UnitKind | null; name: string } | null;
  village: string | null;
  /** București's sector, 1–6. */
  sector: number | null;
}

type Field =
  | 'county'
  | UnitKind
  | 'locality'
  | 'village'
  | 'sector'
  | 'street'
  | 'number'
  | 'building'
  | 'entrance'
  | 'floor'
  | 'apartment'
  | 'postal';

/**
 * The prefixes, in folded form (lower case, no diacritics), longest first within a field. A
 * prefix counts only as a whole word (followed by a dot, a space, a digit or the end): "Sat" is
 * one, "Satu Mare" is not. Street kinds carry how the street is then written ('' = plain "Str.").
 */
const MARKERS: { field: Field; words: string[]; kind?: string }[] = [
  { field: 'county', words: ['judetul', 'judet', 'jud'] },
  { field: 'municipiu', words: ['municipiul', 'municipiu', 'mun'] },
  { field: 'oras', words: ['orasul', 'oras', 'ors', 'or'] },
  { field: 'comuna', words: ['comuna', 'com'] },
  { field: 'locality', words: ['localitatea', 'loc'] },
  { field: 'village', words: ['satul', 'sat'] },
  { field: 'sector', words: ['sectorul', 'sector', 'sect', 'sec'] },
  { field: 'street', words: ['strada', 'str'], kind: '' },
  { field: 'street', words: ['bulevardul', 'b-dul', 'bdul', 'bd'], kind: 'Bd.' },
  { field: 'street', words: ['calea'], kind: 'Calea' },
  { field: 'street', words: ['aleea', 'al'], kind: 'Aleea' },
  { field: 'street', words: ['soseaua', 'sos'], kind: 'Șos.' },
  { field: 'street', words: ['piata', 'p-ta'], kind: 'Piața' },
  { field: 'street', words: ['splaiul', 'spl'], kind: 'Splaiul' },
  { field: 'street', words: ['intrarea', 'intr'], kind: 'Intrarea' },
  { field: 'street', words: ['drumul'], kind: 'Drumul' },
  { field: 'street', words: ['fundatura'], kind: 'Fundătura' },
  { field: 'number', words: ['numarul', 'numar', 'nr'] },
  { field: 'building', words: ['blocul', 'bloc', 'bl'] },
  { field: 'entrance', words: ['scara', 'sc'] },
  { field: 'floor', words: ['etajul', 'etaj', 'et'] },
  { field: 'apartment', words: ['apartamentul', 'apartament', 'apt', 'ap'] },
  { field: 'postal', words: ['codul postal', 'cod postal', 'c\\.p', 'cp'] },
];

const WORDS = MARKERS.flatMap((m) => m.words.map((w) => ({ word: w, marker: m }))).sort((a, b) => b.word.length - a.word.length);
const escape = (w: string) => (w.includes('\\') ? w : w.replace(/\./g, '\\.')).replace(/ /g, '\\s+');
// Not inside a word, nor a hyphenated name ("Sat-Șugatag" is a commune, not "Sat" + "Șugatag").
const MARKER_RE = new RegExp(`(?<![\\p{L}\\p{N}]|\\p{L}-)(${WORDS.map((w) => escape(w.word)).join('|')})(?![\\p{L}]|-\\p{L})(\\.?)`, 'gu');
const markerOf = (folded: string) => WORDS.find((w) => new RegExp(`^${escape(w.word)}$`).test(folded.replace(/\s+/g, ' ')))?.marker;

/** Fields whose value is a name, which may itself start with a prefix word ("Sat Calea Mare"). */
const NAMED: ReadonlySet<Field> = new Set(['county', 'municipiu', 'oras', 'comuna', 'locality', 'village', 'street']);

/** The longest text the parser reads (a card's address is far shorter). */
const MAX_LENGTH = 500;

/** Cedilla forms (ş, ţ) as the comma-below letters Romanian uses (ș, ț). */
function commaBelow(text: string): string {
  return text.replace(/[şŞţŢ]/g, (c) => ({ ş: 'ș', Ş: 'Ș', ţ: 'ț', Ţ: 'Ț' })[c]!);
}

/** Lower case without diacritics, one UTF-16 unit for one: positions in it are positions in `text`. */
function fold(text: string): string {
  let out = '';
  for (const c of text) {
    const f = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    out += f.length === c.length ? f : c.length === 1 ? '?' : '??';
  }
  return out;
}

const SMALL_WORDS = new Set(['cel', 'de', 'din', 'la', 'lui', 'cu', 'și', 'si', 'pe', 'sub', 'dintre', 'după']);

/** "MIHAI VITEAZU" → "Mihai Viteazu", "1 DECEMBRIE 1918" → "1 Decembrie 1918" (only for all-capitals text). */
export function titleCase(text: string): string {
  if (/\p{Ll}/u.test(text)) return text;
  let index = 0;
  return text.toLowerCase().replace(/\p{L}+/gu, (word: string) => {
    if (index++ > 0 && SMALL_WORDS.has(word)) return word;
    return word[0].toUpperCase() + word.slice(1);
  });
}

function clean(value: string): string {
  return value
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;:.()]+/, '')
    .replace(/[\s,;:()]+$/, '')
    // A trailing dot goes, unless it ends an initial ("Str. Ion I.").
    .replace(/(?<!(?:^|[\s.])\p{L})\.$/u, '')
    .trim();
}

const ROMAN: Record<string, number> = { i: 1, ii: 2, iii: 3, iv: 4, v: 5, vi: 6 };

function sectorNumber(value: string): number | null {
  const folded = fold(value).trim();
  const n = /^\d+$/.test(folded) ? Number(folded) : (ROMAN[folded] ?? null);
  return n !== null && n >= 1 && n <= 6 ? n : null;
}

/** A street name that itself starts with a kind word: "Al. I. Cuza" keeps its "Str." in front. */
const STREET_WORD = /^(str|strada|bd|b-dul|bdul|bulevardul|calea|aleea|al|sos|soseaua|piata|p-ta|splaiul|intrarea|drumul|fundatura)(?![\p{L}])/u;

/**
 * Parses an identity card's address: the prefixes Jud./Județul, Mun./Municipiul, Or./Oraș,
 * Com./Comuna, Loc., Sat, Sec./Sectorul, the street kinds (Str., Bd./B-dul, Calea, Aleea, Șos., …),
 * nr., bl., sc., et., ap. and a postal code; in any order, with or without commas, dots and
 * diacritics, in any case. What follows no prefix is kept aside: a six-digit postal code, or the
 * locality when no prefix names one.
 */
export function parseIdAddress(input: string): ParsedIdAddress {
  // eslint-disable-next-line no-control-regex
  const text = commaBelow(input.slice(0, MAX_LENGTH).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' '));
  const folded = fold(text);

  type Hit = { field: Field; kind?: string; start: number; end: number; word: string; dotted: boolean };
  const hits: Hit[] = [];
  for (const m of folded.matchAll(MARKER_RE)) {
    const marker = markerOf(m[1]);
    if (!marker) continue;
    hits.push({ field: marker.field, kind: marker.kind, start: m.index, end: m.index + m[0].length, word: m[1], dotted: m[2] === '.' });
  }

  // A prefix word right after a name prefix, with nothing between, is the start of that name
  // ("Sat Calea Mare", "Str. Comuna din Paris"); a street kind inside a street name continues it
  // ("Str. Gen. Al. Dragalina").
  const accepted: Hit[] = [];
  for (const hit of hits) {
    const previous = accepted[accepted.length - 1];
    if (previous) {
      const between = text.slice(previous.end, hit.start);
      const emptyName = NAMED.has(previous.field) && between.trim() === '' && !hit.dotted && hit.word.length > 3;
      const inStreet = previous.field === 'street' && hit.field === 'street' && !/[,;]/.test(between);
      if (emptyName || inStreet) continue;
    }
    accepted.push(hit);
  }

  const values = new Map<Field, { value: string; kind?: string; merged: boolean }>();
  const aside: string[] = [text.slice(0, accepted[0]?.start ?? text.length)];
  accepted.forEach((hit, i) => {
    const raw = text.slice(hit.end, accepted[i + 1]?.start ?? text.length);
    const cut = raw.search(/[,;]/);
    const value = clean(cut < 0 ? raw : raw.slice(0, cut));
    if (cut >= 0) aside.push(raw.slice(cut + 1));
    if (!value || values.has(hit.field)) return;
    values.set(hit.field, { value, kind: hit.kind, merged: hit.field === 'street' && STREET_WORD.test(fold(value)) });
  });

  let postal = values.get('postal')?.value.replace(/\s+/g, '') ?? '';
  const rest: string[] = [];
  for (const piece of aside.flatMap((a) => a.split(/[,;]/)).map(clean)) {
    if (!piece) continue;
    const code = /^(?:ro[-\s]?)?(\d{6})$/i.exec(piece);
    if (code) postal ||= code[1];
    else if (!/^(romania|ro|rou)$/.test(fold(piece))) rest.push(piece);
  }

  const unitHit = accepted.find((h) => h.field === 'municipiu' || h.field === 'oras' || h.field === 'comuna' || h.field === 'locality');
  let unit: ParsedIdAddress['unit'] = null;
  if (unitHit) {
    const name = values.get(unitHit.field)?.value;
    if (name) unit = { kind: unitHit.field === 'locality' ? null : (unitHit.field as UnitKind), name };
  }
  const village = values.get('village')?.value ?? null;
  const sectorValue = values.get('sector')?.value;
  if (!unit && !village && rest.length) unit = { kind: null, name: rest[0] };

  const streetValue = values.get('street');
  let street = '';
  let number = values.get('number')?.value ?? '';
  if (streetValue) {
    // "Str. Memorandumului 10": the number without its "nr." (not a year: "Str. 1 Decembrie 1918").
    const trailing = number ? null : /^(.*\p{L}.*?)\s+(\d{1,3}[A-Za-z]?)$/u.exec(streetValue.value);
    if (trailing) [, streetValue.value, number] = trailing;
    const name = titleCase(streetValue.value);
    street = streetValue.kind ? `${streetValue.kind} ${name}` : streetValue.merged ? `Str. ${name}` : name;
  }
  const part = (field: Field) => values.get(field)?.value ?? '';
  return {
    county: values.get('county')?.value ?? null,
    unit,
    village,
    sector: sectorValue ? sectorNumber(sectorValue) : null,
    street,
    number,
    building: part('building'),
    entrance: part('entrance'),
    floor: titleCase(part('floor')),
    apartment: part('apartment'),
    postal_code: /^\d{6}$/.test(postal) ? postal : '',
  };
}

// ---------------------------------------------------------------- matching

/** A locality of the register, as the matcher reads it. */
export interface LocalityRow {
  id: number;
  countyId: number;
  name: string;
  kind: string;
  parentId: number | null;
  label: string;
  postalCode: string | null;
}

export interface CountyRef {
  id: number;
  name: string;
  code: string;
}

/** Two spellings of a name are the same without diacritics, case, hyphens and (old orthography) â/î. */
function keys(name: string): [string, string] {
  const plain = (s: string) =>
    searchKey(s)
      .replace(/[\s\-‐–—]+/g, ' ')
      .replace(/[.'’]/g, '')
      .trim();
  return [plain(name), plain(name.replace(/[âÂîÎ]/g, 'i'))];
}

function sameName(a: string, b: string): boolean {
  const [a1, a2] = keys(a);
  const [b1, b2] = keys(b);
  return a1 === b1 || a2 === b2;
}

/** The county a card names, by vehicle code or name; București when only its sector or name says so. */
export function findCounty(all: readonly CountyRef[], parsed: ParsedIdAddress): CountyRef | null {
  if (parsed.county) {
    const written = parsed.county.trim();
    const byCode = all.find((c) => c.code === written.toUpperCase() && /^[A-Za-z]{1,2}$/.test(written));
    const byName = all.find((c) => sameName(c.name, written));
    if (byCode ?? byName) return byCode ?? byName ?? null;
  }
  const bucharest = all.find((c) => c.code === 'B');
  if (parsed.sector !== null || (parsed.unit && sameName(parsed.unit.name, 'București'))) return bucharest ?? null;
  return null;
}

/**
 * The localities among `rows` that fit the parsed address, and whether the fit is certain: the
 * sector; a village by name within its commune, town or municipality when both are given, or by
 * name alone; a unit by name and kind (any kind when none of that kind fits). Certain = exactly
 * one candidate, and the card does not contradict it (a village outside the commune it names).
 */
export function findLocality(rows: readonly LocalityRow[], parsed: ParsedIdAddress): { candidates: LocalityRow[]; certain: boolean } {
  const result = (candidates: LocalityRow[], consistent = true) => ({ candidates, certain: consistent && candidates.length === 1 });
  const units = rows.filter((r) => r.parentId === null);
  if (parsed.sector !== null) return result(units.filter((r) => r.kind === 'sector' && r.name === `Sectorul ${parsed.sector}`));

  const named = (name: string) => rows.filter((r) => sameName(r.name, name));
  let unitCandidates: LocalityRow[] = [];
  if (parsed.unit?.kind) {
    const sameKind = units.filter((r) => r.kind === parsed.unit!.kind && sameName(r.name, parsed.unit!.name));
    unitCandidates = sameKind.length ? sameKind : units.filter((r) => sameName(r.name, parsed.unit!.name));
  }

  if (parsed.village) {
    const villages = named(parsed.village).filter((r) => r.kind === 'sat');
    if (unitCandidates.length) {
      const inUnit = villages.filter((v) => unitCandidates.some((u) => u.id === v.parentId));
      if (inUnit.length) return result(inUnit);
      // The card names a village that is not in its commune: the applicant decides.
      return result([...villages, ...unitCandidates], false);
    }
    return result(villages);
  }
  if (parsed.unit && !parsed.unit.kind) return result(named(parsed.unit.name));
  return result(unitCandidates);
}

export interface AddressMatch extends AddressParts {
  /** The county when certain (named on the card, or the only one of the candidates). */
  county: CountyRef | null;
  /** The locality when certain (exactly one candidate). */
  city: LocalityRow | null;
  county_id: number | null;
  city_id: number | null;
  /** What fits (at most 20), for the applicant to pick from when the match is not certain. */
  candidates: LocalityRow[];
  parsed: ParsedIdAddress;
}

const CANDIDATE_LIMIT = 20;

const localityColumns = {
  id: cities.id,
  countyId: cities.countyId,
  name: cities.name,
  kind: cities.kind,
  parentId: cities.parentId,
  label: cities.label,
  postalCode: cities.postalCode,
};

/** The first word of a name as search_name starts with it ("cluj" for "Cluj-Napoca"). */
function firstWord(name: string): string | null {
  return /[a-z0-9]+/.exec(searchKey(name))?.[0] ?? null;
}

/**
 * Matches an identity card's address to the register: the county (by code or name) and the
 * locality within it; without a county, across the country by name. Diacritics do not matter.
 */
export async function matchIdAddress(db: Db, text: string): Promise<AddressMatch> {
  const parsed = parseIdAddress(text);
  const allCounties = await db.select({ id: counties.id, name: counties.name, code: counties.code }).from(counties);
  let county = findCounty(allCounties, parsed);

  let rows: LocalityRow[] = [];
  if (county) {
    rows = await db.select(localityColumns).from(cities).where(eq(cities.countyId, county.id));
  } else {
    const words = [parsed.unit?.name, parsed.village]
      .filter((n): n is string => Boolean(n))
      .map(firstWord)
      .filter((w): w is string => Boolean(w));
    if (words.length) {
      rows = await db
        .select(localityColumns)
        .from(cities)
        .where(or(...words.map((w) => like(cities.searchName, `${w}%`))));
    }
  }

  const { candidates, certain } = findLocality(rows, parsed);
  const city = certain ? candidates[0] : null;
  if (!county) {
    const countyIds = new Set(candidates.map((c) => c.countyId));
    if (countyIds.size === 1) county = allCounties.find((c) => countyIds.has(c.id)) ?? null;
  }
  return {
    county,
    city,
    county_id: county?.id ?? null,
    city_id: city?.id ?? null,
    candidates: candidates.slice(0, CANDIDATE_LIMIT),
    street: parsed.street,
    number: parsed.number,
    building: parsed.building,
    entrance: parsed.entrance,
    floor: parsed.floor,
    apartment: parsed.apartment,
    postal_code: parsed.postal_code,
    parsed,
  };
}
