/**
 * Issue 31 on a 360×640 phone (touch, mobile): at the overview (new-PFA step 7) with a prefilled
 * primary CAEN code, the applicant taps "Cod principal", types the code's first three digits key by
 * key and sees the matching codes (the field holds what was typed, not the old label with it), picks
 * one, and the new code is saved; leaving the field without a choice keeps the prefilled code.
 * Texts come from the locale files; the codes from the server's nomenclature (whatever CAEN
 * revision it lists), and the test reads the prefilled code from the page.
 */
import type { Envelope } from '@/core/api-types';
import { currentRequest, expect, newApplicantAt, test, type RegisteredAccount } from './fixtures';
import { t } from './walk';
import type { APIRequestContext, Page } from '@playwright/test';

test.use({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });

interface Code {
  id: number;
  code: string;
}

/**
 * A fresh applicant at the overview whose primary code is prefilled: a code of the nomenclature
 * sharing its first three digits with another one (so a search for them offers another choice).
 */
async function applicantWithPrefilledCode(page: Page, request: APIRequestContext): Promise<{ account: RegisteredAccount; prefilled: Code }> {
  const res = await request.get('/api/nomenclature/code/index/0/100');
  expect(res.ok()).toBe(true);
  const { data } = ((await res.json()) as Envelope<{ data: Code[] }>).payload;
  const prefilled = data.find((c) => data.some((other) => other.id !== c.id && other.code.slice(0, 3) === c.code.slice(0, 3)))!;
  expect(prefilled).toBeTruthy();
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it', codes: [prefilled.id] } });
  return { account, prefilled };
}

const primaryField = (page: Page) => page.getByRole('combobox', { name: new RegExp(`^${t('steps:overview.primary')}`) });

test('a prefilled code is changed by tapping "Cod principal" and typing its first three digits', async ({ page, request }) => {
  const { account, prefilled } = await applicantWithPrefilledCode(page, request);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const primary = primaryField(page);
  // The prefilled code as the page shows it ("<code> – <name>"): its first three digits are typed.
  await expect(primary).toHaveValue(/^\d{4} – /);
  const shown = await primary.inputValue();
  const digits = shown.slice(0, 3);

  await primary.tap();
  // An empty field for the new search, the current code as its placeholder.
  await expect(primary).toHaveValue('');
  await expect(primary).toHaveAttribute('placeholder', shown);
  await primary.pressSequentially(digits);
  await expect(primary).toHaveValue(digits);
  const matching = page.getByRole('option', { name: new RegExp(`^${digits}`) });
  await expect(matching.first()).toBeVisible();
  await expect(page.getByText(t('steps:overview.searchEmpty'))).toHaveCount(0);
  await expect(primary).toHaveValue(digits);

  // Another code than the prefilled one.
  const other = matching.filter({ hasNotText: shown }).first();
  await expect(other).toBeVisible();
  await other.tap();
  await expect(primary).toHaveValue(new RegExp(`^${digits}\\d – `));
  await expect(primary).not.toHaveValue(shown);
  const chosen = await primary.inputValue();
  await expect(page.getByText(t('steps:overview.saved')).first()).toBeVisible();

  // Saved: the server has the new code, and the step shows it when drawn again.
  const codes = (await currentRequest(request, account)).form_data.codes as number[];
  expect(codes).toHaveLength(1);
  expect(codes[0]).not.toBe(prefilled.id);
  await page.reload();
  await expect(primaryField(page)).toHaveValue(chosen);
});

test('tapping "Cod principal", typing, then leaving the field without a choice keeps the prefilled code', async ({ page, request }) => {
  const { account, prefilled } = await applicantWithPrefilledCode(page, request);
  const primary = primaryField(page);
  await expect(primary).toHaveValue(/^\d{4} – /);
  const shown = await primary.inputValue();

  await primary.tap();
  await expect(primary).toHaveValue('');
  await primary.pressSequentially(shown.slice(0, 3));
  await expect(page.getByRole('option', { name: new RegExp(`^${shown.slice(0, 3)}`) }).first()).toBeVisible();
  // A tap elsewhere on the page (the step's heading) closes the list: the prefilled code is shown again.
  await page.getByRole('heading', { level: 1 }).tap();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(primary).toHaveValue(shown);
  await expect(primary).not.toBeFocused();
  expect((await currentRequest(request, account)).form_data.codes).toEqual([prefilled.id]);
});
