/**
 * "Datele tale", /contul-meu/date (issue 32), on a phone: an applicant registers, opens the page from
 * the footer, downloads the export (a non-empty zip), erases the account with the password (a wrong
 * one first: the field's error), sees the confirmation, and can no longer sign in. And the way in
 * from the privacy policy: a guest follows its "Datele tale" link, signs in and comes back to the page.
 * The page's texts come from locales/ro/privacy.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { ro as serverMessages } from '../../server/messages/ro';
import { DEFAULT_PASSWORD, DEFAULT_PHONE, expect, outbox, registerViaApi, test, uniqueEmail } from './fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));
const locale = (ns: string) => JSON.parse(fs.readFileSync(path.join(root, 'locales/ro', `${ns}.json`), 'utf8')) as Record<string, any>;
const privacy = locale('privacy');
const common = locale('common');
const auth = locale('auth');
const register = locale('register');
const PRODUCT = 'Ghișeu';
const fill = (text: string, values: Record<string, string> = {}) => text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name === 'product' ? PRODUCT : (values[name] ?? whole)));

/** The server's answer to a wrong e-mail and password pair (server/routes/accounts.ts). */
const WRONG_CREDENTIALS = 'Datele de autentificare sunt incorecte.';

// A 375 px phone (iPhone SE/8 width), touch.
test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

async function noSideScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** Registers through the guest pages ("Vreau PFA"), as an applicant does; lands on the flow's first step. */
async function registerInBrowser(page: Page, email: string): Promise<void> {
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: fill(register.type.title) })).toBeVisible();
  await page.locator('label', { has: page.getByRole('radio', { name: new RegExp(register.type.requesting) }) }).click();
  await expect(page.getByRole('heading', { level: 1, name: register.account.title })).toBeVisible();
  await page.getByLabel(register.account.email).fill(email);
  await page.getByLabel(register.account.phone).fill(DEFAULT_PHONE);
  await page.getByLabel(register.account.password, { exact: true }).fill(DEFAULT_PASSWORD);
  await page.locator('label', { has: page.getByRole('checkbox') }).click();
  await page.getByRole('button', { name: fill(register.account.submit) }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
}

test('on a phone: register, open "Datele tale" from the footer, export, erase with the password, no more sign-in', async ({ page, request }, testInfo) => {
  const email = uniqueEmail('datele-tale');
  await registerInBrowser(page, email);

  // The footer of the flow's page leads there.
  const footerLink = page.getByRole('contentinfo').getByRole('link', { name: common.footer.myData });
  await footerLink.scrollIntoViewIfNeeded();
  await footerLink.click();
  await expect(page).toHaveURL(/\/contul-meu\/date$/);
  await expect(page.getByRole('heading', { level: 1, name: privacy.title })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: privacy.retention.title })).toBeVisible();
  await expect(page.getByText(fill(privacy.intro, { email }))).toBeVisible();
  // The registration's checkbox gave the marketing consent: it can be withdrawn here.
  await expect(page.getByRole('button', { name: privacy.consents.marketing.withdraw })).toBeVisible();
  // A new applicant has paid nothing and signed nothing: nothing remains after the erasure.
  await expect(page.getByText(privacy.erase.nothingKept)).toBeVisible();
  await noSideScroll(page);

  // The export: a zip, downloaded with the token.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: privacy.export.submit }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const saved = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(saved);
  const zip = fs.readFileSync(saved);
  expect(zip.length).toBeGreaterThan(0);
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  await expect(page.getByText(privacy.export.done)).toBeVisible();

  // A wrong password: the field says so, the account stays.
  const password = page.getByLabel(privacy.erase.password, { exact: true });
  await password.fill('nu-este-parola');
  await page.getByRole('button', { name: privacy.erase.submit }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Parola nu este corectă.')).toBeVisible();
  await noSideScroll(page);

  // The right one: the account is erased and this browser signed out.
  await password.fill(DEFAULT_PASSWORD);
  await page.getByRole('button', { name: privacy.erase.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: privacy.erase.doneTitle })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Ți-am trimis un e-mail de confirmare.' })).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('user'))).toBeNull();
  await noSideScroll(page);
  // The confirmation mail went to the erased address.
  await expect.poll(async () => (await outbox(request, email)).map((m) => m.subject)).toContain(serverMessages.mail.accountErased.subject(PRODUCT));

  // Signing in with those credentials fails as for an unknown account.
  await page.goto('/login');
  await page.getByLabel(auth.login.email).fill(email);
  await page.getByLabel(auth.login.password, { exact: true }).fill(DEFAULT_PASSWORD);
  await page.getByRole('button', { name: auth.login.submit }).click();
  await expect(page.getByText(WRONG_CREDENTIALS).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('from the privacy policy, a guest signs in and comes back to "Datele tale"', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 2 });
  await page.goto('/confidentialitate');
  // The "Drepturile tale" section and the footer both lead there.
  await expect(page.locator('h2:has-text("Drepturile tale") + p').getByRole('link', { name: 'Datele tale' })).toHaveAttribute('href', '/contul-meu/date');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Datele tale' }).click();
  // Not signed in: to the sign-in first, which remembers where to come back.
  await expect(page).toHaveURL(/\/login\?redirect=my-data$/);
  await page.getByLabel(auth.login.email).fill(account.email);
  await page.getByLabel(auth.login.password, { exact: true }).fill(account.password);
  await page.getByRole('button', { name: auth.login.submit }).click();
  await expect(page).toHaveURL(/\/contul-meu\/date$/);
  await expect(page.getByRole('heading', { level: 1, name: privacy.title })).toBeVisible();
  await expect(page.getByText(fill(privacy.intro, { email: account.email }))).toBeVisible();
});
