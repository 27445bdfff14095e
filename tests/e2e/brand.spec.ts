/**
 * Brand and trust (issue 17, items 7 and 9): the logo and name on guest pages and in the flow
 * header, the footer's contact and its terms and privacy links opening real pages (content/legal),
 * the links beside the register checkbox and the signature consent, the identity step's privacy
 * note and tips, step names beside "Pasul X din N", and the questionnaire info page's links from
 * the brand's defaults (nothing set: no dead end).
 */
import type { Page } from '@playwright/test';
import { currentRequest, expect, newApplicantAt, registerViaApi, signInBrowser, test } from './fixtures';
import { flowStepText, localeText } from '../copy';

async function expectBrand(page: Page) {
  const brand = page.getByTestId('brand').first();
  await expect(brand).toContainText('Ghișeu');
  const logo = brand.locator('img');
  await expect(logo).toHaveAttribute('src', '/logo.svg');
  // The logo loads (a broken image has no natural width).
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

test('guest pages show the logo and name, and a footer whose terms and privacy links open real pages', async ({ page }) => {
  for (const path of ['/login', '/register', '/password/forgot']) {
    await page.goto(path);
    await expectBrand(page);
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'contact@ghiseu.ro' })).toHaveAttribute('href', 'mailto:contact@ghiseu.ro');
    await expect(footer.getByRole('link', { name: 'Termeni și condiții' })).toHaveAttribute('href', '/termeni');
  }

  await page.goto('/login');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Termeni și condiții' }).click();
  await expect(page).toHaveURL(/\/termeni$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Termeni și condiții' })).toBeVisible();
  // The articles the signature consent cites are there.
  await expect(page.getByText(/^2\.10\.3\. Prin semnare ești de acord/)).toBeVisible();
  await expect(page.getByText(/^2\.10\.4\. Semnătura ta este aplicată doar pe documentele dosarului/)).toBeVisible();

  await page.getByRole('contentinfo').getByRole('link', { name: 'Politica de confidențialitate' }).click();
  await expect(page).toHaveURL(/\/confidentialitate$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Politica de confidențialitate' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Drepturile tale' })).toBeVisible();
});

test('the register checkbox has the terms and privacy links beside it, opening in a new tab', async ({ page, context }) => {
  await page.goto('/register');
  await page.locator('label', { has: page.getByRole('radio', { name: /Am PFA/ }) }).click();
  await expect(page.getByLabel('Adresa de e-mail')).toBeVisible();
  const links = page.getByTestId('register-legal-links');
  const [terms] = await Promise.all([context.waitForEvent('page'), links.getByRole('link', { name: 'Termeni și condiții' }).click()]);
  await expect(terms).toHaveURL(/\/termeni$/);
  await expect(terms.getByRole('heading', { level: 1, name: 'Termeni și condiții' })).toBeVisible();
  await terms.close();
  // The form is still there, untouched.
  await expect(page.getByLabel('Adresa de e-mail')).toBeVisible();
});

test('the flow shows the brand, the step name beside the counter, the footer; the identity step its privacy note and photo tips', async ({ page, request }) => {
  await newApplicantAt(page, request, 1);
  await expectBrand(page);
  await expect(page.getByRole('banner').getByText('Înființare PFA')).toBeVisible();
  await expect(page.getByTestId('wizard-progress')).toHaveText(localeText('steps:common.progress', { position: 2, total: 10 }));
  await expect(page.getByTestId('wizard-step-name')).toHaveText(flowStepText('requesting-company-step-1', 'name'));
  await expect(page.getByTestId('step-privacy-note')).toContainText(flowStepText('requesting-company-step-1', 'privacyNote'));
  await expect(page.getByTestId('step-privacy-note').getByRole('link', { name: localeText('steps:common.privacyLink') })).toHaveAttribute('href', '/confidentialitate');
  await expect(page.getByRole('heading', { level: 2, name: flowStepText('requesting-company-step-1', 'tipsTitle') })).toBeVisible();
  await expect(page.getByText(flowStepText('requesting-company-step-1', 'tips').split('\n')[1])).toBeVisible();
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: 'Politica de confidențialitate' })).toHaveAttribute('href', '/confidentialitate');
  await footer.getByRole('link', { name: 'Termeni și condiții' }).click();
  await expect(page).toHaveURL(/\/termeni$/);
});

test('the signature consent links to the terms it cites', async ({ page, request, context }) => {
  await newApplicantAt(page, request, 5);
  await expect(page.getByTestId('wizard-step-name')).toHaveText(flowStepText('requesting-company-step-5', 'name'));
  const link = page.getByRole('link', { name: localeText('steps:signature.readTerms') });
  const [terms] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(terms.getByText(/^2\.10\.4\./)).toBeVisible();
});

test('the questionnaire info page links to the main site and the contact address by default', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 1 });
  await currentRequest(request, account, '/api/registration/existing/open');
  await signInBrowser(page, account);
  await page.goto('/inregistrare/1');
  await page.locator('label', { has: page.getByRole('checkbox', { name: /Voi fi plătitor de TVA/ }) }).click();
  await page.getByRole('button', { name: localeText('steps:questionnaire.submit') }).click();
  await expect(page).toHaveURL(/\/inregistrare\/chestionar\/info$/);
  await expectBrand(page);
  const contact = page.getByRole('main').getByRole('link', { name: 'Scrie-ne pe e-mail' });
  await expect(contact).toHaveAttribute('href', 'mailto:contact@ghiseu.ro');
  // The main site (answered here, not fetched).
  await page.route(/^https:\/\/ghiseu\.ro\//, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Ghișeu</title><h1>Site-ul Ghișeu</h1>' }));
  await page.getByRole('link', { name: 'Mergi pe site-ul Ghișeu' }).click();
  await expect(page).toHaveURL('https://ghiseu.ro/');
  await expect(page.getByRole('heading', { name: 'Site-ul Ghișeu' })).toBeVisible();
});
