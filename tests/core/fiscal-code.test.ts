import { describe, expect, it } from 'vitest';
import {
  fiscalCodeCheckDigit,
  hasValidCheckDigit,
  isValidFiscalCode,
  normalizeFiscalCode,
  parseFiscalCode,
} from '@/core/fiscal-code';

describe('normalizeFiscalCode', () => {
  it('keeps the digits of a CUI written with or without RO, in any case, with blanks', () => {
    expect(normalizeFiscalCode('42157397')).toBe('42157397');
    expect(normalizeFiscalCode('  42157397 ')).toBe('42157397');
    expect(normalizeFiscalCode('RO42157397')).toBe('42157397');
    expect(normalizeFiscalCode('ro42157397')).toBe('42157397');
    expect(normalizeFiscalCode('Ro 4672 0190')).toBe('46720190');
    expect(normalizeFiscalCode('\tRO 46720190\n')).toBe('46720190');
  });

  it('refuses what is not 2–10 digits without a leading zero', () => {
    expect(normalizeFiscalCode('')).toBeNull();
    expect(normalizeFiscalCode('RO')).toBeNull();
    expect(normalizeFiscalCode('7')).toBeNull();
    expect(normalizeFiscalCode('12345678901')).toBeNull();
    expect(normalizeFiscalCode('042157397')).toBeNull();
    expect(normalizeFiscalCode('4215-7397')).toBeNull();
    expect(normalizeFiscalCode('RO RO42157397')).toBeNull();
    expect(normalizeFiscalCode('42157397RO')).toBeNull();
    expect(normalizeFiscalCode('DE42157397')).toBeNull();
  });
});

describe('CUI check digit (key 753217532)', () => {
  it('computes the check digit worked out by hand', () => {
    // 004215739 · 753217532 = 0+0+12+4+1+35+35+9+18 = 114; 1140 mod 11 = 7
    expect(fiscalCodeCheckDigit('4215739')).toBe(7);
    // 004672019 · 753217532 = 66; 660 mod 11 = 0
    expect(fiscalCodeCheckDigit('4672019')).toBe(0);
    // 000159008 · 753217532 = 86; 860 mod 11 = 2
    expect(fiscalCodeCheckDigit('159008')).toBe(2);
  });

  it('writes a remainder of 10 as 0', () => {
    // 000010000 · 753217532 = 1; 10 mod 11 = 10 → 0
    expect(fiscalCodeCheckDigit('10000')).toBe(0);
    expect(hasValidCheckDigit('100000')).toBe(true);
    expect(hasValidCheckDigit('100001')).toBe(false);
  });

  it('accepts real and sample CUIs and refuses every other last digit', () => {
    for (const cui of ['42157397', '46720190', '1590082', '14399840', '38176420', '45992073']) {
      expect(hasValidCheckDigit(cui)).toBe(true);
      const last = Number(cui[cui.length - 1]);
      for (let d = 0; d <= 9; d++) {
        if (d !== last) expect(hasValidCheckDigit(cui.slice(0, -1) + d)).toBe(false);
      }
    }
  });

  it('refuses a body that is not 1–9 digits', () => {
    expect(() => fiscalCodeCheckDigit('')).toThrow();
    expect(() => fiscalCodeCheckDigit('1234567890')).toThrow();
    expect(() => fiscalCodeCheckDigit('12a')).toThrow();
    expect(hasValidCheckDigit('7')).toBe(false);
    expect(hasValidCheckDigit('12345678901')).toBe(false);
  });
});

describe('parseFiscalCode', () => {
  it('tells a bad format from a bad check digit', () => {
    expect(parseFiscalCode(' RO42157397 ')).toEqual({ ok: true, digits: '42157397' });
    expect(parseFiscalCode('RO 46720190')).toEqual({ ok: true, digits: '46720190' });
    expect(parseFiscalCode('42157398')).toEqual({ ok: false, reason: 'check_digit' });
    expect(parseFiscalCode('RO4215739')).toEqual({ ok: false, reason: 'check_digit' });
    expect(parseFiscalCode('abc')).toEqual({ ok: false, reason: 'format' });
    expect(parseFiscalCode('')).toEqual({ ok: false, reason: 'format' });
    expect(isValidFiscalCode('ro42157397')).toBe(true);
    expect(isValidFiscalCode('42157390')).toBe(false);
  });
});
