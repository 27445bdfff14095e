/**
 * The existing-PFA flow end to end (issue 7): "Am PFA" registration, questionnaire, fiscal code,
 * "Te-am găsit", pricing through the built-in checkout, identity, card, signature, then the
 * hand-over to the dashboard (`/sso/{token}`, the built-in stand-in when DASHBOARD_URL is unset);
 * a new login goes straight to the dashboard.
 */
import type { Page } from '@playwright/test';
import { completeIdentity, drawSignature, payAtBuiltinCheckout } from './drivers';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './fixtures';

async function registerExisting(page: Page, email: string): Promise<void> {
  await page.goto('/register');
  await page.locator('label', { has: page.getByRole('radio', { name: /Am PFA/ }) }).click();
  await page.getByLabel('Adresa de e-mail').fill(email);
  await page.getByLabel('Telefon').fill('0712345678');
  await page.getByLabel('Parola', { exact: true }).fill(DEFAULT_PASSWORD);
  await page.locator('label', { has: page.getByRole('checkbox') }).click();
  await page.getByRole('button', { name: 'Vreau cont Ghișeu' }).click();
  await expect(page).toHaveURL(/\/inregistrare\/1$/);
}

const next = (page: Page) => page.getByRole('button', { name: 'Pasul următor' });

test('Am PFA: fiscal code → Te-am găsit → payment → identity → card → signature → dashboard; the next login goes to the dashboard', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('existing');
  await registerExisting(page, email);

  // 1. Questionnaire.
  await page.locator('label', { has: page.getByRole('checkbox', { name: /Niciuna dintre acestea/ }) }).click();
  await page.getByRole('button', { name: 'Mergi la următorul pas' }).click();

  // 2. Fiscal code: a wrong check digit is refused before any lookup, the field is cleared.
  await expect(page).toHaveURL(/\/inregistrare\/2$/);
  const code = page.getByLabel(/Cod fiscal \(CUI\/CIF\)/);
  await expect(next(page)).toBeDisabled();
  await code.fill('42157398');
  await next(page).click();
  await expect(page.getByText(/Cifra de control a CUI-ului nu este corectă/).first()).toBeVisible();
  await expect(code).toHaveValue('');
  await code.fill('RO 42157397');
  await next(page).click();

  // 3. "Te-am găsit": the PFA read-only, then the power of attorney, then on.
  await expect(page).toHaveURL(/\/inregistrare\/3$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Te-am găsit' })).toBeVisible();
  await expect(page.getByTestId('company-name')).toContainText(/PERSOAN/);
  await expect(page.getByTestId('company-address')).not.toBeEmpty();
  await next(page).click();
  await expect(page.getByRole('heading', { name: 'Procura notarială' })).toBeVisible();
  await next(page).click();

  // 4. Pricing and the built-in checkout; back at step 5 by the returned identifier.
  await expect(page).toHaveURL(/\/inregistrare\/4$/);
  const counter = page.getByTestId('wizard-progress');
  await expect(counter).toHaveText('Pasul 4 din 7');
  await expect(page.getByTestId('wizard-step-name')).toHaveText('Abonament');
  await page.getByRole('button', { name: 'Vreau Ghișeu' }).click();
  await payAtBuiltinCheckout(page);
  await expect(page).toHaveURL(/\/inregistrare\/5$/);
  // The counter keeps the flow's 7 steps once paid (it said "Pasul 4 din 6").
  await expect(counter).toHaveText('Pasul 5 din 7');
  await expect(page.getByTestId('wizard-step-name')).toHaveText('Identitate');

  // 5. Identity ("Noi depunem totul pentru tine").
  await completeIdentity(page);
  await page.getByRole('button', { name: 'Pasul următor' }).click();

  // 7. Card, then 6. signature.
  await expect(page).toHaveURL(/\/inregistrare\/7$/);
  await expect(counter).toHaveText('Pasul 6 din 7');
  await page.locator('label', { has: page.getByRole('radio', { name: 'Nu, mulțumesc' }) }).click();
  // This flow sends no dossier: the card step's button is "Pasul următor" (issue 17), not "Trimite dosar".
  await expect(page.getByRole('button', { name: 'Trimite dosar' })).toHaveCount(0);
  await next(page).click();
  await expect(page).toHaveURL(/\/inregistrare\/6$/);
  await expect(counter).toHaveText('Pasul 7 din 7');
  // The last step says where the applicant goes next, and its button too.
  await expect(page.getByText(/Acesta este ultimul pas\. După ce semnezi, te ducem în contul tău Ghișeu/)).toBeVisible();
  await drawSignature(page);
  await page.getByRole('button', { name: 'Semnează și mergi în contul tău' }).click();

  // The hand-over to the dashboard.
  await expect(page).toHaveURL(/\/sso\/[^/]+$/);
  await expect(page.getByTestId('sso-user')).toContainText(email);

  // From now on login goes straight to the dashboard.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/(register|login)$/);
  await page.goto('/login');
  await page.getByLabel('Adresa de e-mail').fill(email);
  await page.getByLabel('Parola', { exact: true }).fill(DEFAULT_PASSWORD);
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  await expect(page).toHaveURL(/\/sso\/[^/]+$/);
  await expect(page.getByTestId('sso-user')).toContainText(email);
});
