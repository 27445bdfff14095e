import { describe, expect, it } from 'vitest';
import { cnpControlDigit, cnpProblem, isValidCnp } from '../../src/core/personal-code';

/** The CNP rules, once for every caller (the overview's edit, the identity simulator). */
describe('CNP (src/core/personal-code.ts)', () => {
  const now = Date.UTC(2026, 10, 25);

  it('accepts first digits 1 to 9 with a real birth date and the right check digit', () => {
    expect(cnpProblem('1900515125806', now)).toBeNull();
    expect(cnpProblem('2850101400019', now)).toBeNull();
    expect(cnpProblem('5000229400019', now)).toBeNull(); // 29 Feb 2000
    // 9: a foreign citizen; 7 and 8: foreign residents (century not encoded).
    expect(cnpProblem('9850101400011', now)).toBeNull();
    expect(cnpProblem('7000229400012', now)).toBeNull(); // only 2000 makes 29 Feb real
  });

  it('refuses a leading 0, a wrong length, an impossible or future date and a wrong check digit', () => {
    expect(cnpProblem('', now)).toBe('required');
    expect(cnpProblem('0001014000016', now)).toBe('digits');
    expect(cnpProblem('190051512580', now)).toBe('digits');
    expect(cnpProblem('1000229400011', now)).toBe('date'); // 29 Feb 1900
    expect(cnpProblem('9123101400015', now)).toBe('date'); // month 31
    expect(cnpProblem('6990101400015', now)).toBe('date'); // 1 Jan 2099
  });

  it('knows the check digit (279146358279, mod 11, 10 counts as 1)', () => {
    expect(cnpControlDigit('190051512580')).toBe(6);
    expect(cnpProblem('1900515125807', now)).toBe('check');
    expect(isValidCnp('1900515125806', now)).toBe(true);
    expect(isValidCnp(1900515125806, now)).toBe(true);
  });
});
