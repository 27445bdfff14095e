/**
 * The fiscal code of a Romanian company or sole proprietorship (CUI / CIF, spec 001 §2 "Fiscal
 * code", §4 "Existing flow fiscal code"): 2 to 10 digits, the last one a check digit, written with
 * or without the VAT prefix `RO`. Shared by the browser (the fiscal-code field) and the server (the
 * collect-company rule), so both accept and refuse the same input.
 */

/** Weights of the CUI check digit, applied to the body (all digits but the last) padded to 9 digits. */
const CUI_KEY = [7, 5, 3, 2, 1, 7, 5, 3, 2] as const;

export const FISCAL_CODE_MIN_DIGITS = 2;
export const FISCAL_CODE_MAX_DIGITS = 10;

/**
 * The digits of a fiscal code as people write it: surrounding blanks, an optional `RO` prefix in
 * any case and blanks between the digits are dropped (`" RO 4215 7397 "` → `"42157397"`). Returns
 * null when what is left is not 2–10 digits without a leading zero.
 */
export function normalizeFiscalCode(input: string): string | null {
  const compact = input.replace(/\s+/g, '');
  const digits = compact.replace(/^ro/i, '');
  if (!/^[1-9][0-9]*$/.test(digits)) return null;
  if (digits.length < FISCAL_CODE_MIN_DIGITS || digits.length > FISCAL_CODE_MAX_DIGITS) return null;
  return digits;
}

/** The check digit of a CUI body (the digits before the check digit, at most 9). */
export function fiscalCodeCheckDigit(body: string): number {
  if (!/^[0-9]{1,9}$/.test(body)) throw new Error(`not a CUI body: ${body}`);
  const padded = body.padStart(9, '0');
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(padded[i]) * CUI_KEY[i];
  const check = (sum * 10) % 11;
  return check === 10 ? 0 : check;
}

/** Whether normalised digits end with the right check digit. */
export function hasValidCheckDigit(digits: string): boolean {
  if (!/^[0-9]{2,10}$/.test(digits)) return false;
  return fiscalCodeCheckDigit(digits.slice(0, -1)) === Number(digits[digits.length - 1]);
}

export type FiscalCodeResult =
  | { ok: true; digits: string }
  /** `format`: not 2–10 digits (after `RO` and blanks); `check_digit`: digits whose check digit is wrong. */
  | { ok: false; reason: 'format' | 'check_digit' };

/** Normalises and checks a fiscal code in one go. */
export function parseFiscalCode(input: string): FiscalCodeResult {
  const digits = normalizeFiscalCode(input);
  if (!digits) return { ok: false, reason: 'format' };
  if (!hasValidCheckDigit(digits)) return { ok: false, reason: 'check_digit' };
  return { ok: true, digits };
}

/** True for a well-formed fiscal code with a correct check digit. */
export function isValidFiscalCode(input: string): boolean {
  return parseFiscalCode(input).ok;
}
