/**
 * A subscription price and its phases (spec 001 §1 and §9: the credit partner's "130 lei per month
 * for the first 3 months including setup, then 72 lei per month"): what the register page, the
 * built-in checkout, Stripe's Subscription Schedule and the receipt all read. Pure data.
 */

/** A price as the API answers it: amounts in lei, an introductory phase or none. */
export interface PriceTerms {
  amount: number;
  currency: string;
  /** month, year, or '' for a one-time payment */
  interval: string;
  /** `amount` for this many intervals, then `then_amount` every interval; null: `amount` throughout. */
  intro_months: number | null;
  then_amount: number | null;
}

/** One phase: `amount` per interval, for `intervals` of them (null: from then on). */
export interface PricePhase {
  amount: number;
  intervals: number | null;
}

/** The phases of a price: one (the same amount throughout) or two (introductory, then the later amount). */
export function pricePhases(price: PriceTerms): PricePhase[] {
  if (price.intro_months && price.then_amount !== null && price.then_amount !== undefined) {
    return [
      { amount: price.amount, intervals: price.intro_months },
      { amount: price.then_amount, intervals: null },
    ];
  }
  return [{ amount: price.amount, intervals: null }];
}

/** Bani (1/100 RON) as lei: 13000 → 130. */
export function lei(bani: number): number {
  return bani / 100;
}
