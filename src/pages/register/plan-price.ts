import { pricePhases } from '@/core/billing';
import type { PlanPrice } from '@/core/api-types';
import { firstMonths, type T } from '@/shared/useT';

const amountFormat = new Intl.NumberFormat('ro-RO', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/**
 * A plan's price in words for the register page (issue 17 item 5): "119 lei/lună", or with an
 * introductory phase "130 lei/lună în primele 3 luni, apoi 72 lei/lună" (from the price's data).
 */
export function planPriceLabel(price: PlanPrice, t: T): string {
  const unit = price.currency.toUpperCase() === 'RON' ? 'lei' : price.currency.toUpperCase();
  const per = (amount: number) =>
    t(price.interval === 'month' ? 'account.pricePerMonth' : price.interval === 'year' ? 'account.pricePerYear' : 'account.priceOnce', {
      amount: amountFormat.format(amount),
      unit,
    });
  const phases = pricePhases(price);
  if (phases.length === 1) return per(phases[0].amount);
  return t('account.priceIntro', { intro: per(phases[0].amount), firstMonths: firstMonths(t, phases[0].intervals ?? 1), then: per(phases[1].amount) });
}
