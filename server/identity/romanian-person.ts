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

/** A plausible Romanian person (name, valid CNP, place and date of birth) derived from `seed`. */
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
  };
}
