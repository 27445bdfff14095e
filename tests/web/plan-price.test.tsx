import { describe, expect, it } from 'vitest';
import roCommon from '../../locales/ro/common.json';
import roRegister from '../../locales/ro/register.json';
import enCommon from '../../locales/en/common.json';
import enRegister from '../../locales/en/register.json';
import { createTranslate } from '@/guest/translate';
import { planPriceLabel } from '@/pages/register/plan-price';
import type { PlanPrice } from '@/core/api-types';

/** A plan's price in words on /register/account, by the length of its introductory phase (Romanian plural forms). */
const plan = (introMonths: number): PlanPrice => ({
  stripe_id: 'price_x',
  description: '',
  amount: 130,
  currency: 'RON',
  interval: 'month',
  intro_months: introMonths,
  then_amount: 72,
});

describe('planPriceLabel', () => {
  const ro = createTranslate({ common: roCommon, register: roRegister }, 'register');
  const en = createTranslate({ common: enCommon, register: enRegister }, 'register');

  it.each([
    [1, '130 lei/lună în prima lună, apoi 72 lei/lună', '130 lei/month for the first month, then 72 lei/month'],
    [3, '130 lei/lună în primele 3 luni, apoi 72 lei/lună', '130 lei/month for the first 3 months, then 72 lei/month'],
    [24, '130 lei/lună în primele 24 de luni, apoi 72 lei/lună', '130 lei/month for the first 24 months, then 72 lei/month'],
  ])('%i month(s) of the introductory price', (months, romanian, english) => {
    expect(planPriceLabel(plan(months), ro)).toBe(romanian);
    expect(planPriceLabel(plan(months), en)).toBe(english);
  });
});
