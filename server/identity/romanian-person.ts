import { createHash } from 'node:crypto';
import type { IdentityPerson } from './types';
import { cnpControlDigit } from '../../src/core/personal-code';

const MALE = ['Andrei', 'Mihai', 'Alexandru', 'Ion', 'Cristian', 'Florin', 'Bogdan', 'Radu', 'Vlad', 'Gabriel', 'Ștefan', 'Tudor'];
const FEMALE = ['Maria', 'Elena', 'Ioana', 'Ana', 'Andreea', 'Cristina', 'Alexandra', 'Mihaela', 'Raluca', 'Diana', 'Irina', 'Simona'];
const LAST = ['Popescu', 'Ionescu', 'Popa', 'Dumitru', 'Stan', 'Stoica', 'Gheorghe', 'Rusu', 'Munteanu', 'Matei', 'Constantin', 'Marin', 'Dobre', 'Florea', 'Tudose', 'Lungu'];

/** Places of birth as an identity card writes them, with the county code (JJ) of the CNP. */
const PLACES: { place: string; county: string }[] = [
  { place: 'Mun. Cluj-Napoca, jud. Cluj', county: '12' },
  { place: 'Mun. Iași, jud. Iași', county: '22' },
  { place: 'Mun. Timișoara, jud. Timiș', county: '35' },
  { place: 'Mun. Brașov, jud. Brașov', county: '08' },
  { place: 'Mun. Constanța, jud. Constanța', county: '13' },
  { place: 'Mun. Craiova, jud. Dolj', county: '16' },
  { place: 'Mun. Sibiu, jud. Sibiu', county: '32' },
  { place: 'Mun. Oradea, jud. Bihor', county: '05' },
  { place: 'Mun. Ploiești, jud. Prahova', county: '29' },
  { place: 'Mun. Suceava, jud. Suceava', county: '33' },
  { place: 'Mun. București, Sectorul 3', county: '43' },
  { place: 'Mun. București, Sectorul 6', county: '46' },
];

/**
 * Home addresses as identity cards write them (issue 31), in real localities of the register
 * (server/db/seed/localities.json): a municipality or town with its county, a village with its
 * commune or town, a sector of București.
 */
export const ADDRESS_PLACES = {
  urban: [
    { unit: 'Mun. Cluj-Napoca', county: 'Cluj' },
    { unit: 'Mun. Turda', county: 'Cluj' },
    { unit: 'Mun. Iași', county: 'Iași' },
    { unit: 'Mun. Timișoara', county: 'Timiș' },
    { unit: 'Mun. Brașov', county: 'Brașov' },
    { unit: 'Mun. Constanța', county: 'Constanța' },
    { unit: 'Mun. Craiova', county: 'Dolj' },
    { unit: 'Mun. Sibiu', county: 'Sibiu' },
    { unit: 'Mun. Oradea', county: 'Bihor' },
    { unit: 'Mun. Ploiești', county: 'Prahova' },
    { unit: 'Mun. Suceava', county: 'Suceava' },
    { unit: 'Mun. Alba Iulia', county: 'Alba' },
    { unit: 'Or. Câmpeni', county: 'Alba' },
    { unit: 'Or. Voluntari', county: 'Ilfov' },
  ],
  rural: [
    { unit: 'Com. Albac', village: 'Rogoz', county: 'Alba' },
    { unit: 'Com. Florești', village: 'Luna de Sus', county: 'Cluj' },
    { unit: 'Com. Miroslava', village: 'Horpaz', county: 'Iași' },
    { unit: 'Com. Dumbrăvița', village: 'Dumbrăvița', county: 'Timiș' },
    { unit: 'Com. Sânpetru', village: 'Sânpetru', county: 'Brașov' },
    { unit: 'Com. Cumpăna', village: 'Cumpăna', county: 'Constanța' },
    { unit: 'Com. Sânmartin', village: 'Băile Felix', county: 'Bihor' },
    { unit: 'Or. Cisnădie', village: 'Cisnădioara', county: 'Sibiu' },
    { unit: 'Com. Tunari', village: 'Tunari', county: 'Ilfov' },
  ],
  sectors: [1, 2, 3, 4, 5, 6],
  /** A village whose name repeats within its county, written without its commune: not certain. */
  uncertain: [
    { village: 'Pădureni', county: 'Cluj' },
    { village: 'Costești', county: 'Alba' },
    { village: 'Cristești', county: 'Iași' },
  ],
} as const;

const URBAN_STREETS = ['Str. Memorandumului', 'Str. Mihai Eminescu', 'Str. Avram Iancu', 'Str. Libertății', 'Bd. Republicii', 'Str. 1 Decembrie 1918', 'Aleea Trandafirilor', 'Calea Unirii', 'Bd. Independenței'];
const BUCHAREST_STREETS = ['Str. Lipscani', 'Calea Victoriei', 'Bd. Unirii', 'Șos. Pantelimon', 'Str. Matei Basarab', 'Bd. Iuliu Maniu', 'Calea Moșilor'];
const RURAL_STREETS = ['Str. Principală', 'Str. Școlii', 'Str. Bisericii', 'Str. Morii', 'Str. Florilor'];

/**
 * Which address the simulator reads from the card: `certain` (the default) matches one locality
 * and is complete; `no-street` is a village address without a street ("Com. Albac, Sat Rogoz nr.
 * 12, Jud. Alba"); `uncertain` names a village that repeats within its county, without its commune.
 */
export type SimulatedAddressKind = 'certain' | 'no-street' | 'uncertain';

/** A home address as an identity card writes it, derived from `seed` (the same seed, the same address). */
export function simulatedAddress(seed: string, kind: SimulatedAddressKind = 'certain'): string {
  const random = generator(`${seed}:address`);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const int = (from: number, to: number) => from + Math.floor(random() * (to - from + 1));
  const number = String(int(1, 120));
  if (kind === 'uncertain') {
    const place = pick(ADDRESS_PLACES.uncertain);
    return `Sat ${place.village}, ${pick(RURAL_STREETS)} nr. ${number}, Jud. ${place.county}`;
  }
  if (kind === 'no-street') {
    const place = pick(ADDRESS_PLACES.rural);
    return `${place.unit}, Sat ${place.village} nr. ${number}, Jud. ${place.county}`;
  }
  const flat = () => `bl. ${pick(['A', 'B', 'C', 'D', 'M'])}${int(1, 12)}, sc. ${pick(['A', 'B', 'C', '1', '2'])}, et. ${int(1, 10)}, ap. ${int(1, 80)}`;
  const where = random();
  if (where < 0.2) {
    const line = `${pick(BUCHAREST_STREETS)} nr. ${number}`;
    return `Mun. București, Sec. ${pick(ADDRESS_PLACES.sectors)}, ${random() < 0.7 ? `${line}, ${flat()}` : line}`;
  }
  if (where < 0.45) {
    const place = pick(ADDRESS_PLACES.rural);
    return `${place.unit}, Sat ${place.village}, ${pick(RURAL_STREETS)} nr. ${number}, Jud. ${place.county}`;
  }
  const place = pick(ADDRESS_PLACES.urban);
  const line = `${pick(URBAN_STREETS)} nr. ${number}`;
  return `${place.unit}, ${random() < 0.6 ? `${line}, ${flat()}` : line}, Jud. ${place.county}`;
}

// The CNP rules live once, in src/core/personal-code.ts.
export { cnpControlDigit, isValidCnp } from '../../src/core/personal-code';

/** A deterministic generator from a seed: the same session always yields the same person. */
function generator(seed: string): () => number {
  const digest = createHash('sha256').update(seed).digest();
  let state = digest.readUInt32LE(0);
  return () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A plausible Romanian person (name, valid CNP, place and date of birth, home address) derived from `seed`. */
export function romanianPerson(seed: string): IdentityPerson {
  const random = generator(seed);
  const pick = <T,>(list: T[]): T => list[Math.floor(random() * list.length)];
  const male = random() < 0.5;
  const firstName = pick(male ? MALE : FEMALE);
  const lastName = pick(LAST);
  const birthPlace = pick(PLACES);
  const year = 1965 + Math.floor(random() * 39); // 1965 … 2003
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  const sex = year >= 2000 ? (male ? 5 : 6) : male ? 1 : 2;
  const two = (n: number) => String(n).padStart(2, '0');
  const serial = String(1 + Math.floor(random() * 999)).padStart(3, '0');
  const first12 = `${sex}${two(year % 100)}${two(month)}${two(day)}${birthPlace.county}${serial}`;
  return {
    first_name: firstName,
    last_name: lastName,
    personal_code: `${first12}${cnpControlDigit(first12)}`,
    place_of_birth: birthPlace.place,
    date_of_birth: `${year}-${two(month)}-${two(day)}`,
    address: simulatedAddress(seed),
  };
}
