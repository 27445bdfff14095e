import { describe, expect, it } from 'vitest';
import { lei, pricePhases } from '../../src/core/billing';

describe('a price’s phases (issue 17 item 11)', () => {
  it('the credit partner’s plan: 130 for 3 months, then 72 from then on', () => {
    expect(pricePhases({ amount: 130, currency: 'RON', interval: 'month', intro_months: 3, then_amount: 72 })).toEqual([
      { amount: 130, intervals: 3 },
      { amount: 72, intervals: null },
    ]);
  });

  it('a price without an introductory phase, or with half of one, is one amount throughout', () => {
    expect(pricePhases({ amount: 119, currency: 'RON', interval: 'month', intro_months: null, then_amount: null })).toEqual([{ amount: 119, intervals: null }]);
    expect(pricePhases({ amount: 119, currency: 'RON', interval: 'month', intro_months: 3, then_amount: null })).toEqual([{ amount: 119, intervals: null }]);
  });

  it('bani as lei', () => {
    expect(lei(13000)).toBe(130);
    expect(lei(7250)).toBe(72.5);
  });
});
