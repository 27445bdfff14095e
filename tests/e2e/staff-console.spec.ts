/**
 * The operator console (issue 18): an operator signs in at /staff/login, finds an applicant by CNP,
 * adds a timeline item and uploads a trade-register document on the dossier page, and the
 * applicant's status page shows both; axe on the console's pages at 360×640 and 1280×800.
 */
import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import { cnpControlDigit } from '@/core/personal-code';
import { test, expect, addStaffViaApi, auth, currentRequest, newApplicantAt, signInStaffBrowser } from './fixtures';
import { VIEWPORTS, axeViolations } from './axe';
import { localeText } from '../copy';

/** A valid CNP no other run uses: a man born 1 Jan 1990 in Cluj (12), a random serial. */
function uniqueCnp(): string {
  const first12 = `190010112${String(randomInt(0, 1000)).padStart(3, '0')}`;
  return `${first12}${cnpControlDigit(first12)}`;
}

/** A new-PFA applicant at the status step with names and a CNP (the identity decision's), and the dossier's id. */
async function applicantWithCnp(page: Page, request: Parameters<typeof newApplicantAt>[1], lastName: string) {
  const account = await newApplicantAt(page, request, 9);
  const cnp = uniqueCnp();
  const profile = { first_name: 'Ion', last_name: lastName, personal_code: cnp };
  expect((await request.post('/__test/place-at-step', { headers: auth(account), data: { step: 'requesting-company-step-9', profile } })).ok()).toBe(true);
  const { id } = await currentRequest(request, account);
  return { account, cnp, id };
}

/** Twelve seconds: the status page polls every 5 s. */
const NEXT_POLL = { timeout: 12_000 };

test('an operator finds an applicant by CNP, adds a timeline item and uploads a document; the applicant sees both', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const applicantPage = await (await browser.newContext()).newPage();
  const { account, cnp, id } = await applicantWithCnp(applicantPage, request, 'Consolescu');
  const operator = await addStaffViaApi(request, 'operator');

  // Signs in through the form.
  await page.goto('/staff/dossiers');
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff%2Fdossiers$/);
  await page.getByLabel('Adresa de e-mail').fill(operator.email);
  await page.getByLabel('Parola', { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  await expect(page).toHaveURL(/\/staff\/dossiers$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dosare' })).toBeVisible();

  // Finds the applicant by CNP: one row, the link to the dossier.
  await page.getByRole('searchbox', { name: 'Caută' }).fill(cnp);
  await page.getByRole('button', { name: 'Caută', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`search=${cnp}`));
  await expect(page.getByRole('table', { name: 'Dosare găsite: 1' })).toBeVisible();
  const row = page.getByTestId('dossier-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(account.email);
  await row.getByRole('link', { name: new RegExp(`^Dosarul ${id}: .*Consolescu`, 'i') }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/dossiers/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`^Dosarul ${id}: `) })).toBeVisible();

  // A name reservation, from the type's form.
  await page.getByRole('combobox', { name: 'Tipul elementului' }).selectOption({ label: 'Rezervarea denumirii' });
  await page.getByLabel(/^Data/).fill('2026-11-23');
  await page.getByRole('checkbox', { name: /Denumirea este rezervată/ }).check();
  await page.getByLabel(/^Denumirea PFA/).fill('CONSOLESCU ION PFA');
  await page.getByRole('button', { name: 'Adaugă elementul' }).click();
  await expect(page.getByText('Elementul a fost adăugat în istoricul dosarului.').first()).toBeVisible();
  await expect(page.getByTestId('staff-timeline-item').filter({ hasText: 'Rezervarea denumirii' })).toContainText('CONSOLESCU ION PFA');

  // A trade-register document.
  await page.getByLabel('Fișiere (PDF sau imagini)').setInputFiles({ name: 'certificat-inregistrare.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% certificat\n%%EOF\n') });
  await page.getByRole('button', { name: 'Încarcă documentele' }).click();
  await expect(page.getByText('Documentele au fost atașate dosarului.').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Descarcă certificat-inregistrare.pdf' })).toBeVisible();

  // Both actions are in the dossier's audit log, with who did them; so is opening the dossier (the access log, issue 32).
  const audit = page.getByRole('table', { name: 'Acțiunile personalului asupra dosarului' });
  const rows = audit.getByTestId('audit-row');
  await expect(rows.filter({ hasText: localeText('console:dossier.auditActions.timeline.add') })).toHaveCount(1);
  await expect(rows.filter({ hasText: localeText('console:dossier.auditActions.documents.attach') })).toHaveCount(1);
  await expect(rows.filter({ hasText: localeText('console:dossier.auditActions.dossier.read') }).first()).toBeVisible();
  await expect(audit).toContainText(operator.email);

  // The applicant's status page.
  await applicantPage.goto('/infiintare-pfa/status');
  await expect(applicantPage.getByRole('heading', { level: 1, name: 'Status Dosar' })).toBeVisible();
  await expect(applicantPage.getByTestId('timeline-item').first()).toContainText('Denumirea „CONSOLESCU ION PFA” a fost rezervată la Registrul Comerțului.', NEXT_POLL);
  await expect(applicantPage.getByRole('button', { name: 'Descarcă documentele (documente.zip)' })).toBeVisible(NEXT_POLL);
  await applicantPage.context().close();
});

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`axe: the console's pages have no violations (${name} ${viewport.width}×${viewport.height})`, async ({ page, request, browser }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const applicantPage = await (await browser.newContext()).newPage();
    const { cnp, id } = await applicantWithCnp(applicantPage, request, 'Axescu');
    await applicantPage.context().close();
    const operator = await addStaffViaApi(request, 'operator');

    await page.goto('/staff/login');
    await expect(page.getByRole('button', { name: 'Intră în cont' })).toBeEnabled();
    expect(await axeViolations(page), '/staff/login').toEqual([]);

    await signInStaffBrowser(page, operator);
    await page.goto('/staff/dossiers');
    await expect(page.getByRole('table', { name: /^Dosare găsite: / })).toBeVisible();
    expect(await axeViolations(page), '/staff/dossiers').toEqual([]);

    await page.goto(`/staff/dossiers?search=${cnp}`);
    await expect(page.getByRole('table', { name: 'Dosare găsite: 1' })).toBeVisible();
    expect(await axeViolations(page), '/staff/dossiers?search=…').toEqual([]);

    await page.goto(`/staff/dossiers/${id}`);
    await expect(page.getByRole('button', { name: 'Adaugă elementul' })).toBeEnabled();
    expect(await axeViolations(page), '/staff/dossiers/:id').toEqual([]);

    // A field error from the server, and the confirmation dialog.
    await page.getByRole('combobox', { name: 'Tipul elementului' }).selectOption({ label: 'Rezervarea denumirii' });
    await page.getByRole('button', { name: 'Adaugă elementul' }).click();
    await expect(page.getByText('Câmpul este obligatoriu.')).toBeVisible();
    expect(await axeViolations(page), '/staff/dossiers/:id with a field error').toEqual([]);

    await page.getByRole('button', { name: 'Marchează ca finalizat' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Finalizezi dosarul?' })).toBeVisible();
    expect(await axeViolations(page), 'the finalize confirmation').toEqual([]);
    await page.getByRole('button', { name: 'Renunță' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
}
