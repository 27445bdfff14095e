/**
 * English for applicants (issue 18): the language switch of the guest pages and of the flow header.
 * The choice turns the page (and `lang` of <html>) into English, survives a reload and a sign-in, is
 * sent as Accept-Language so the server's field errors come in English, and is kept by the server for
 * a signed-in applicant. Axe-clean in English.
 */
import type { Page } from '@playwright/test';
import { axeViolations, VIEWPORTS } from './axe';
import { DEFAULT_PASSWORD, expect, registerViaApi, signInBrowser, test, uniqueEmail } from './fixtures';
import { flowStepText, localeText } from '../copy';

const QUESTIONNAIRE_RO = localeText('steps:questionnaire.title');
const QUESTIONNAIRE_EN = localeText('steps:questionnaire.title', {}, 'en');

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test('/login → English: the page and <html lang> change, the choice survives a reload and a sign-in, the wizard is in English', async ({ page, request }) => {
  const errors = watchErrors(page);
  const account = await registerViaApi(request, { type: 2 });
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Bine ai revenit!' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ro');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('button', { name: 'Română' })).toBeEnabled();
  expect(await axeViolations(page)).toEqual([]);

  // A reload: the prerendered Romanian page, then English once its copy is in.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Signing in (which clears the stored session) keeps the language; the server keeps it too.
  await page.getByLabel('E-mail address').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  const signIn = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect((await signIn).request().headers()['accept-language']).toBe('en');
  await expect(page.getByText(QUESTIONNAIRE_EN)).toBeVisible();
  await expect(page.getByTestId('flow-title')).toHaveText('Set up a PFA');
  await expect(page.getByRole('button', { name: flowStepText('requesting-company-step-0', 'submit', {}, 'en') })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('the flow header’s switch: the step turns English and back, the server is told', async ({ page, request }) => {
  const errors = watchErrors(page);
  const account = await registerViaApi(request, { type: 2 });
  await signInBrowser(page, account);
  await page.goto('/infiintare-pfa');
  await expect(page.getByText(QUESTIONNAIRE_RO)).toBeVisible();
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/user/language'));
  await page.getByRole('banner').getByRole('button', { name: 'English' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(QUESTIONNAIRE_EN)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.reload();
  await expect(page.getByText(QUESTIONNAIRE_EN)).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Română' }).click();
  await expect(page.getByText(QUESTIONNAIRE_RO)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ieșire din cont' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ro');
  expect(errors).toEqual([]);
});

test('/register in English: the account form, and a server field error (an e-mail already taken) in English', async ({ page, request }) => {
  const taken = await registerViaApi(request, { type: 2 });
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Creează-ți contul Ghișeu' })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create your Ghișeu account' })).toBeVisible();
  await page.locator('label', { has: page.getByRole('radio', { name: /I want a PFA/ }) }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account details' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByLabel('E-mail address').fill(taken.email);
  await page.getByLabel('Phone').fill('0712345678');
  await page.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
  await page.locator('label', { has: page.getByRole('checkbox') }).click();
  await page.getByRole('button', { name: 'I want a Ghișeu account' }).click();
  await expect(page.getByText('There is already an account with this e-mail address.')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  // Another address goes on into the wizard, in English.
  await page.getByLabel('E-mail address').fill(uniqueEmail('english'));
  await page.getByRole('button', { name: 'I want a Ghișeu account' }).click();
  await expect(page.getByText(QUESTIONNAIRE_EN)).toBeVisible();
});

test('on a 360 px phone the flow header holds the switch beside the sign-out button, without a sideways scroll, axe-clean in English', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 2 });
  await page.setViewportSize(VIEWPORTS.phone);
  await signInBrowser(page, account);
  await page.goto('/infiintare-pfa');
  await expect(page.getByText(QUESTIONNAIRE_RO)).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'English' }).click();
  await expect(page.getByText(QUESTIONNAIRE_EN)).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Sign out' })).toBeInViewport();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Română' })).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
});
