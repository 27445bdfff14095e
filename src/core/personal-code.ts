/**
 * The Romanian personal numeric code (CNP), checked once for the browser and the server (the
 * overview's inline edit, the identity simulator's people): SAALLZZJJNNNC, 13 digits.
 * - S: sex and century: 1/2 born 1900–1999, 3/4 1800–1899, 5/6 2000–2099, 7/8 foreign residents,
 *   9 foreign citizens; for 7, 8 and 9 the century is not encoded (1900s or 2000s).
 * - AALLZZ: a real birth date, not in the future.
 * - C: the check digit, (Σ digit × 279146358279) mod 11, 10 counting as 1.
 */

const CNP_KEY = [2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9];

/** Centuries the first digit allows. */
const CENTURIES: Record<number, number[]> = { 1: [1900], 2: [1900], 3: [1800], 4: [1800], 5: [2000], 6: [2000], 7: [1900, 2000], 8: [1900, 2000], 9: [1900, 2000] };

export type CnpProblem = 'required' | 'digits' | 'date' | 'check';

/** The CNP's 13th digit for its first twelve. */
export function cnpControlDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * CNP_KEY[i];
  const rest = sum % 11;
  return rest === 10 ? 1 : rest;
}

function realPastDate(year: number, month: number, day: number, now: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = month >= 1 && month <= 12 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && date.getTime() <= now;
}

/** What is wrong with a CNP (a string, or a number as typed), or null when it is valid. */
export function cnpProblem(value: unknown, now = Date.now()): CnpProblem | null {
  const cnp = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (!cnp) return 'required';
  if (!/^[1-9]\d{12}$/.test(cnp)) return 'digits';
  const d = [...cnp].map(Number);
  const yy = d[1] * 10 + d[2];
  const month = d[3] * 10 + d[4];
  const day = d[5] * 10 + d[6];
  if (!CENTURIES[d[0]].some((century) => realPastDate(century + yy, month, day, now))) return 'date';
  return cnpControlDigit(cnp.slice(0, 12)) === d[12] ? null : 'check';
}

/** A 13-digit CNP whose first digit, birth date and check digit are valid. */
export function isValidCnp(value: unknown, now = Date.now()): boolean {
  return cnpProblem(value, now) === null;
}
