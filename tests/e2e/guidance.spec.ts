/**
 * Issue 17, items 1–3, as an applicant sees them in Chromium against the real server:
 * the identity step says what is still needed after approval (the address, with its form as the
 * primary action), explains the disabled "Pasul următor" and moves the focus to the result; the
 * overview starts with the activity's CAEN code, keeps "Pasul următor" disabled without a primary
 * code and shows the server's error under the CAEN field; a toast lasts 5 s, at the top end below
 * the header ("Ieșire din cont" stays uncovered), and shows only after an edit.
 */
import type { Locator } from '@playwright/test';
import { axeViolations, VIEWPORTS } from './axe';
import { fillHomeAddress, uploadIdentityPhotos } from './drivers';
import { auth, currentRequest, expect, newApplicantAt, test } from './fixtures';
import { flowStepText, localeText, textStart } from '../copy';

/** What a saved edit says: the identity step's address form, and the overview's fields. */
const SAVED_ADDRESS = localeText('steps:identity.saved');
const SAVED = localeText('steps:overview.saved');

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

test('identity: after approval without an address, one line says what is missing, the address form is the primary action, next says why it waits', async ({ page, request }) => {
  test.setTimeout(90_000);
  await newApplicantAt(page, request, 1, { formData: { questionnaire: ['niciuna'] } });
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-1', 'submit') });
  await expect(next).toBeDisabled();
  await expect(next).toHaveAccessibleDescription(localeText('steps:identity.nextNeedsVerification'));
  await expect(page.getByText(localeText('steps:identity.nextNeedsVerification'))).toBeVisible();

  await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
  // A card whose address the provider did not read: the applicant types it.
  await uploadIdentityPhotos(page, 'buletin-fara-adresa');
  await page.getByRole('button', { name: localeText('steps:identity.submit') }).click();
  const result = page.getByTestId('identity-result');
  await expect(result).toHaveText(localeText('steps:identity.approved'), { timeout: 15_000 });
  // The focus goes to the decision, not to the page body.
  await expect(result).toBeFocused();

  await expect(page.getByTestId('identity-missing-address')).toHaveText(`${localeText('steps:identity.missingAddress')}: ${localeText('steps:identity.missingAddressNext')}`);
  // The address form is the primary (filled) button; "Pasul următor" names its reason.
  const edit = page.getByRole('button', { name: localeText('steps:identity.edit') });
  await page.mouse.move(0, 0);
  await expect(edit).toHaveCSS('background-color', 'rgb(37, 99, 235)');
  await expect(next).toBeDisabled();
  await expect(next).toHaveAccessibleDescription(localeText('steps:identity.nextNeedsAddress'));
  const reasonId = await next.getAttribute('aria-describedby');
  await expect(page.locator(`#${reasonId}`)).toBeVisible();

  await fillHomeAddress(page);
  // Closing the form leaves the focus on what the save answered.
  await expect(page.getByRole('status').filter({ hasText: SAVED_ADDRESS })).toBeFocused();
  await expect(page.getByTestId('identity-missing-address')).toHaveCount(0);
  await page.mouse.move(0, 0);
  await expect(edit).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await expect(next).toBeEnabled();
  await expect(next).not.toHaveAttribute('aria-describedby');
});

test('overview: the primary CAEN code comes from the activity chosen at step 2', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 2, { formData: { questionnaire: ['niciuna'] } });
  const it = page.getByRole('radio', { name: 'Consultanță IT și programare', exact: true });
  await page.locator('label', { has: it }).click();
  await page.getByRole('button', { name: flowStepText('requesting-company-step-2', 'submit') }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/3$/);

  const placed = await request.post('/__test/place-at-step', { headers: auth(account), data: { step: 'requesting-company-step-7' } });
  expect(placed.ok()).toBe(true);
  await page.goto('/infiintare-pfa');
  await expect(page).toHaveURL(/\/infiintare-pfa\/7$/);
  await expect(page.getByRole('combobox', { name: textStart(localeText('steps:overview.primary')) })).toHaveValue('6220 – Activități de consultanță în tehnologia informației și de management (gestiune și exploatare) a mijloacelor de calcul');
  await expect(page.getByRole('button', { name: flowStepText('requesting-company-step-7', 'submit') })).toBeEnabled();
  expect((await currentRequest(request, account)).form_data.codes).toEqual([36220]); // CAEN Rev.3 6220 (ids carry the revision: server/db/caen.ts)
});

test('overview: "Pasul următor" waits for a primary code; a server error shows under the CAEN field', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity: 'design-grafic' } });
  // The identity decision's names and CNP (the send checks them too).
  const profile = { first_name: 'Ana', last_name: 'Popescu', personal_code: '1900515125806' };
  expect((await request.post('/__test/place-at-step', { headers: auth(account), data: { step: 'requesting-company-step-7', profile } })).ok()).toBe(true);
  await page.reload();
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-7', 'submit') });
  const primary = page.getByRole('combobox', { name: textStart(localeText('steps:overview.primary')) });
  await expect(primary).toHaveValue('');
  await expect(next).toBeDisabled();
  await expect(next).toHaveAccessibleDescription(localeText('steps:overview.nextNeedsPrimary'));

  await primary.fill('7412');
  await page.getByRole('option', { name: /^7412/ }).click();
  await expect(primary).toHaveValue(/^7412 – /);
  await expect(next).toBeEnabled();

  // Another tab removed the codes meanwhile: the send is refused, and the message is read at the field.
  const cleared = await request.post('/__test/place-at-step', { headers: auth(account), data: { step: 'requesting-company-step-7', form_data: { codes: [] } } });
  expect(cleared.ok()).toBe(true);
  await next.click();
  // The field shows the codes as the server has them (none), marked, with the message linked to it.
  await expect(primary).toHaveValue('');
  await expect(primary).toHaveAttribute('aria-invalid', 'true');
  await expect(primary).toHaveAccessibleDescription(/Alege codul CAEN principal\./);
  const section = page.getByRole('region', { name: localeText('steps:overview.caenTitle') });
  await expect(section.getByText('Alege codul CAEN principal.')).toBeVisible();

  // Choosing a code clears it.
  await primary.fill('7412');
  await page.getByRole('option', { name: /^7412/ }).click();
  await expect(primary).not.toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByText('Alege codul CAEN principal.')).toHaveCount(0);
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/8$/);
});

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`${size}: a saved edit's toast shows at the top end below the header for 5 s, readable, then goes`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    await newApplicantAt(page, request, 7, { formData: { activity: 'design-grafic' } });
    const primary = page.getByRole('combobox', { name: textStart(localeText('steps:overview.primary')) });
    await expect(primary).toBeVisible();
    // Nothing was edited yet: no toast.
    await expect(page.locator('[data-scope="toast"][data-part="root"]')).toHaveCount(0);

    await primary.fill('7412');
    await page.getByRole('option', { name: /^7412/ }).click();
    const toast = page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: SAVED });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveAttribute('data-state', 'open');
    // Settled where it shows: at the top end, below "Ieșire din cont".
    await expect.poll(async () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length)).toBe(0);
    const toastBox = await box(toast);
    const logout = await box(page.getByRole('button', { name: 'Ieșire din cont' }));
    expect(toastBox.y).toBeGreaterThanOrEqual(logout.y + logout.height);
    expect(viewport.width - (toastBox.x + toastBox.width)).toBeLessThanOrEqual(24);
    expect(toastBox.y).toBeLessThan(viewport.height / 3);
    expect(await axeViolations(page)).toEqual([]);
    // Gone after its 5 seconds (well within the assertion's wait).
    await expect(toast).toHaveCount(0, { timeout: 10_000 });
  });
}

test('credit partner: arriving at the overview presets the locked codes without a toast', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { partnerSlug: 'icredit', formData: { activity: 'curier' } });
  await expect(page.getByText(/^8291 – /)).toBeVisible();
  await expect(page.getByText(/^6619 – /)).toBeVisible();
  await expect.poll(async () => (await currentRequest(request, account)).form_data.codes).toEqual([38291, 36619]); // CAEN Rev.3 ids (server/db/caen.ts)
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(SAVED)).toHaveCount(0);
});
