/**
 * The overview step (new-PFA step 7, "Dosarul tău este gata") in Chromium against the real server:
 * inline edit of the CNP with a bad and a good value, the CAEN search and the primary-code rule,
 * the registered-office popup both ways.
 */
import { currentRequest, expect, newApplicantAt, test } from './fixtures';

test('inline CNP edit, CAEN search and the primary rule', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  await expect(page.getByRole('heading', { level: 1, name: 'Dosarul tău este gata' })).toBeVisible();

  await page.getByRole('button', { name: 'Modifică CNP' }).click();
  const cnp = page.getByRole('textbox', { name: 'CNP' });
  await cnp.fill('1234567890123');
  await page.getByRole('button', { name: 'Salvează' }).click();
  await expect(page.getByText(/^CNP-ul (nu conține o dată de naștere validă|nu este valid: cifra de control nu corespunde)\.$/)).toBeVisible();
  await cnp.fill('1900101410011');
  await page.getByRole('button', { name: 'Salvează' }).click();
  await expect(page.getByText('Informațiile au fost modificate.').first()).toBeVisible();
  expect((await currentRequest(request, account)).profile.personal_code).toBe('1900101410011');

  // A secondary code needs a primary one first.
  await page.getByRole('button', { name: 'Adaugă cod secundar' }).click();
  await expect(page.getByText('Nu poți adăuga coduri secundare fără a selecta mai întâi un cod principal')).toBeVisible();
  const primary = page.getByRole('combobox', { name: /^Cod principal/ });
  await primary.fill('620');
  await page.getByRole('option', { name: /^6201/ }).click();
  await expect(primary).toHaveValue(/^6201 – /);
  // The primary row cannot be deleted.
  await expect(page.getByRole('button', { name: 'Șterge codul 6201' })).toHaveCount(0);
  await expect.poll(async () => ((await currentRequest(request, account)).form_data.codes as unknown[] | undefined)?.length ?? 0).toBe(1);
});

test('registered office at home: the popup keeps the office at the product, or leaves the flow', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  const home = page.getByRole('radio', { name: 'Vreau sediul social acasă' });
  const product = page.getByRole('radio', { name: /^Păstrez sediul social la Ghișeu/ });
  await expect(product).toBeChecked();

  await page.locator('label', { has: home }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Sediul social rămâne la Ghișeu' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Păstrez sediul la Ghișeu' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(product).toBeChecked();

  await page.locator('label', { has: home }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Vreau sediul acasă, mă îndrept către alte servicii' }).click();
  await expect(page).toHaveURL(/\/inregistrare\/chestionar\/info$/);
  const state = await currentRequest(request, account);
  expect(state.status).toBe('lost');
  expect(state.lost_reason).toBe('sediu-la-client');
});
