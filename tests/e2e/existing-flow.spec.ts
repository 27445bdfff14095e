/**
 * The existing-PFA flow end to end (issue 7): "Am PFA" registration, questionnaire, fiscal code,
 * "Te-am găsit", pricing through the built-in checkout, identity, card, signature, then the
 * hand-over to the dashboard (`/sso/{token}`, the built-in stand-in when DASHBOARD_URL is unset);
 * a new login goes straight to the dashboard.
 */
import type { Page } from '@playwright/test';
import { completeIdentity, drawSignature, payAtBuiltinCheckout } from './drivers';
import { DEFAULT_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import { flowStepText, localeText } from '../copy';

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

/** The button of the step `stepId` as its flow file names it ("Pasul următor"). */
const next = (page: Page, stepId: string) => page.getByRole('button', { name: flowStepText(stepId, 'submit') });

test('Am PFA: fiscal code → Te-am găsit → payment → identity → card → signature → dashboard; the next login goes to the dashboard', async ({ page }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('existing');
  await registerExisting(page, email);

  // 1. Questionnaire.
  await page.locator('label', { has: page.getByRole('checkbox', { name: /Niciuna dintre acestea/ }) }).click();
  await page.getByRole('button', { name: localeText('steps:questionnaire.submit') }).click();

  // 2. Fiscal code: a wrong check digit is refused before any lookup, the field is cleared.
  await expect(page).toHaveURL(/\/inregistrare\/2$/);
  const code = page.getByLabel(localeText('steps:fiscalCode.label'));
  await expect(next(page, 'existing-company-step-2')).toBeDisabled();
  await code.fill('42157398');
  await next(page, 'existing-company-step-2').click();
  await expect(page.getByText(/Cifra de control a CUI-ului nu este corectă/).first()).toBeVisible();
  await expect(code).toHaveValue('');
  await code.fill('RO 42157397');
  await next(page, 'existing-company-step-2').click();

  // 3. "Te-am găsit": the PFA read-only, then the power of attorney, then on.
  await expect(page).toHaveURL(/\/inregistrare\/3$/);
  await expect(page.getByRole('heading', { level: 1, name: localeText('steps:confirmCompany.title') })).toBeVisible();
  await expect(page.getByTestId('company-name')).toContainText(/PERSOAN/);
  await expect(page.getByTestId('company-address')).not.toBeEmpty();
  await next(page, 'existing-company-step-3').click();
  await expect(page.getByRole('heading', { name: localeText('steps:confirmCompany.attorney.title') })).toBeVisible();
  await next(page, 'existing-company-step-3').click();

  // 4. Pricing and the built-in checkout; back at step 5 by the returned identifier.
  await expect(page).toHaveURL(/\/inregistrare\/4$/);
  const counter = page.getByTestId('wizard-progress');
  await expect(counter).toHaveText(localeText('steps:common.progress', { position: 4, total: 7 }));
  await expect(page.getByTestId('wizard-step-name')).toHaveText(flowStepText('existing-company-step-4', 'name'));
  await page.getByRole('button', { name: flowStepText('existing-company-step-4', 'submit') }).click();
  await payAtBuiltinCheckout(page);
  await expect(page).toHaveURL(/\/inregistrare\/5$/);
  // The counter keeps the flow's 7 steps once paid (it said "Pasul 4 din 6").
  await expect(counter).toHaveText(localeText('steps:common.progress', { position: 5, total: 7 }));
  await expect(page.getByTestId('wizard-step-name')).toHaveText(flowStepText('existing-company-step-5', 'name'));

  // 5. Identity ("Noi depunem totul pentru tine").
  await completeIdentity(page);
  await next(page, 'existing-company-step-5').click();

  // 7. Card, then 6. signature.
  await expect(page).toHaveURL(/\/inregistrare\/7$/);
  await expect(counter).toHaveText(localeText('steps:common.progress', { position: 6, total: 7 }));
  await page.locator('label', { has: page.getByRole('radio', { name: localeText('steps:card.no') }) }).click();
  // This flow sends no dossier: the card step's button is "Pasul următor" (issue 17), not "Trimite dosar".
  await expect(page.getByRole('button', { name: flowStepText('requesting-company-step-8', 'submit') })).toHaveCount(0);
  await next(page, 'existing-company-step-7').click();
  await expect(page).toHaveURL(/\/inregistrare\/6$/);
  await expect(counter).toHaveText(localeText('steps:common.progress', { position: 7, total: 7 }));
  // The last step says where the applicant goes next, and its button too.
  await expect(page.getByText(flowStepText('existing-company-step-6', 'notice'))).toBeVisible();
  await drawSignature(page);
  await page.getByRole('button', { name: flowStepText('existing-company-step-6', 'submit') }).click();

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
