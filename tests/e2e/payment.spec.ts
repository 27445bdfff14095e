/**
 * Pricing and payment through the built-in checkout (no Stripe configured on the e2e server):
 * "Vreau Ghișeu" → the checkout page → "Plătește" / "Anulează" → the payment confirmation page →
 * the status page (new PFA) or the next step (existing PFA). Spec 001 §2 items 8, 9; §4 Payment.
 */
import type { Page } from '@playwright/test';
import { auth, currentRequest, expect, newApplicantAt, PHONE, registerViaApi, signInBrowser, test } from './fixtures';
import { flowStepText, localeText } from '../copy';

const purchases = (page: Page) =>
  page.evaluate(() => ((window as unknown as { dataLayer?: { event?: string; ecommerce?: unknown }[] }).dataLayer ?? []).filter((e) => e.event === 'purchase'));

test('new PFA: pricing → built-in checkout → confirmation → status page, the purchase pushed once', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 9, { partnerSlug: 'icredit' });
  await expect(page.getByRole('heading', { level: 1, name: flowStepText('requesting-company-step-9', 'title', { partner: 'iCredit' }) })).toBeVisible();
  await expect(page.getByTestId('price-amount')).toHaveText(localeText('steps:pricing.perMonth', { amount: '130' }));
  await expect(page.getByTestId('price-footnote')).toContainText('130 lei/lună în primele 3 luni, inclusiv înființarea, apoi 72 lei/lună');
  await expect(page.getByText(localeText('steps:pricing.features.filings'))).toBeVisible();

  await page.getByRole('button', { name: localeText('steps:pricing.submit') }).click();
  await expect(page).toHaveURL(/\/checkout\/pay_[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Plată abonament' })).toBeVisible();
  await expect(page.getByTestId('checkout-amount')).toHaveText('130,00 lei / lună');
  await expect(page.getByText('iCredit', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Plătește' }).click();

  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
  await expect.poll(() => purchases(page)).toEqual([{ event: 'purchase', ecommerce: { transaction_id: expect.any(String), value: 119, currency: 'RON' } }]);
  const paid = await currentRequest(request, account);
  expect(paid.paid).toBe(true);
  expect(paid.form_data.selected_stripe_id).toBe('price_ghiseu_icredit_monthly');

  // The confirmation page again (a reload, the back button): straight to the status page, no second purchase.
  await page.goto('/infiintare-pfa/plata');
  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
  expect(await purchases(page)).toEqual([]);
  // The wizard's steps now lead to the status page too.
  await page.goto('/infiintare-pfa/9');
  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
});

test('cancel at the checkout, then choose again and pay', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 9);
  await expect(page.getByRole('heading', { level: 1, name: localeText('steps:pricing.titleUnaffiliated') })).toBeVisible();
  await page.getByRole('button', { name: localeText('steps:pricing.submit') }).click();
  await expect(page.getByTestId('checkout-amount')).toHaveText('119,00 lei / lună');
  await page.getByRole('button', { name: 'Anulează' }).click();

  await expect(page).toHaveURL(/\/infiintare-pfa\/plata\?anulata=pay_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Plata a fost anulată' })).toBeVisible();
  expect((await currentRequest(request, account)).paid).toBe(false);
  await page.getByRole('button', { name: 'Înapoi la abonament' }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/9$/);

  await page.getByRole('button', { name: localeText('steps:pricing.submit') }).click();
  await page.getByRole('button', { name: 'Plătește' }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
  expect((await currentRequest(request, account)).paid).toBe(true);
  expect(await purchases(page)).toHaveLength(1);
});

test('existing PFA: paying returns to the next step (identity), and "Înapoi" skips the paid pricing step', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 1, partnerSlug: 'curier' });
  await currentRequest(request, account, '/api/registration/existing/open');
  const placed = await request.post('/__test/place-at-step', { headers: auth(account), data: { step: 'existing-company-step-4' } });
  expect(placed.ok()).toBe(true);
  await signInBrowser(page, account);
  await page.goto('/inregistrare');
  await expect(page).toHaveURL(/\/inregistrare\/4$/);
  await expect(page.getByRole('heading', { level: 1, name: flowStepText('existing-company-step-4', 'title', { partner: 'Curieri parteneri' }) })).toBeVisible();

  await page.getByRole('button', { name: localeText('steps:pricing.submit') }).click();
  await page.getByRole('button', { name: 'Plătește' }).click();
  await expect(page).toHaveURL(/\/inregistrare\/5$/);
  // Identity is step 5 of the flow's 7 whether or not the pricing step is paid (issue 17: it said "Pasul 4 din 6").
  await expect(page.getByTestId('wizard-progress')).toHaveText(localeText('steps:common.progress', { position: 5, total: 7 }));
  expect(await purchases(page)).toHaveLength(1);
  const state = await currentRequest(request, account, '/api/registration/existing/open');
  expect(state).toMatchObject({ paid: true, step: 'existing-company-step-5' });

  await page.getByRole('button', { name: localeText('steps:common.previous') }).click();
  await expect(page).toHaveURL(/\/inregistrare\/3$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE.viewport, hasTouch: true, isMobile: true });

  test('the button reads the short form under 1280 px', async ({ page, request }) => {
    await newApplicantAt(page, request, 9);
    const button = page.getByRole('button', { name: localeText('steps:pricing.submitShort'), exact: true });
    await expect(button).toBeVisible();
    await button.click();
    await expect(page).toHaveURL(/\/checkout\/pay_[\w-]+$/);
  });
});
