/**
 * Issue 31 on a 360×640 phone: an applicant from a village. The identity step's address comes from
 * the full SIRUTA register — typed by the applicant (the village found by its own name, its postal
 * code filled in), or read from the card and matched, or read but not certain (the applicant picks
 * the locality) — and the applicant goes on to the overview, where they replace the activity's
 * prefilled CAEN code by typing. Texts come from the locale files.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { uploadIdentityPhotos } from './drivers';
import { currentRequest, expect, newApplicantAt, test, type RegisteredAccount } from './fixtures';
import { t } from './walk';
import { flowStepText, textStart } from '../copy';

test.use({ viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });

const field = (page: Page, key: string) => page.getByRole('textbox', { name: textStart(t(`steps:address.${key}`)) });
const picker = (page: Page, key: string) => page.getByRole('combobox', { name: textStart(t(`steps:address.${key}`)) });

/** Types `text` into a place picker and taps `option` in the list the server answered with. */
async function pickPlace(page: Page, key: string, text: string, option: string): Promise<void> {
  const input = picker(page, key);
  await input.tap();
  const answered = page.waitForResponse((r) => r.url().includes('/api/nomenclature/') && r.url().includes(new URLSearchParams({ search_term: text }).toString()));
  await input.pressSequentially(text);
  await answered;
  await page.getByRole('option', { name: option, exact: true }).tap();
  await expect(input).toHaveValue(option);
}

/** At the identity step on the phone: the three photos (named for the simulator's case), sent, approved. */
async function approvedWith(page: Page, request: APIRequestContext, photos: string): Promise<RegisteredAccount> {
  const account = await newApplicantAt(page, request, 1, { formData: { questionnaire: ['niciuna'] } });
  await uploadIdentityPhotos(page, photos);
  await page.getByRole('button', { name: t('steps:identity.submit') }).tap();
  await expect(page.getByText(t('steps:identity.approved'))).toBeVisible({ timeout: 15_000 });
  return account;
}

/** The identity step's button (its flow file's `copy.submit`). */
const identityNext = (page: Page) => page.getByRole('button', { name: flowStepText('requesting-company-step-1', 'submit') });

/** From the identity step: an activity at step 2, then (as the steps between are others' specs) the overview. */
async function onToOverview(page: Page, request: APIRequestContext, account: RegisteredAccount): Promise<void> {
  await expect(identityNext(page)).toBeEnabled();
  await identityNext(page).tap();
  await expect(page).toHaveURL(/\/infiintare-pfa\/2$/);
  const it = page.getByRole('radio', { name: 'Consultanță IT și programare', exact: true });
  await page.locator('label', { has: it }).tap();
  await page.getByRole('button', { name: flowStepText('requesting-company-step-2', 'submit') }).tap();
  await expect(page).toHaveURL(/\/infiintare-pfa\/3$/);
  const placed = await request.post('/__test/place-at-step', { headers: { authorization: `Bearer ${account.token}`, 'x-requested-with': 'XMLHttpRequest' }, data: { step: 'requesting-company-step-7' } });
  expect(placed.ok()).toBe(true);
  await page.goto('/infiintare-pfa');
  await expect(page).toHaveURL(/\/infiintare-pfa\/7$/);
}

test('a village address typed by the applicant, then the prefilled CAEN code replaced by typing', async ({ page, request }) => {
  test.setTimeout(90_000);
  // The provider read no address from this card: the applicant types it.
  const account = await approvedWith(page, request, 'buletin-fara-adresa');
  await page.getByRole('button', { name: t('steps:identity.edit') }).tap();
  await field(page, 'placeOfBirth').fill('Câmpeni');
  await pickPlace(page, 'county', 'Alba', 'Alba');
  // A village, found by its own name without diacritics; it is written with its commune.
  await pickPlace(page, 'city', 'rogoz', 'Rogoz, comuna Albac');
  await expect(field(page, 'postalCode')).toHaveValue('517018');
  await field(page, 'street').fill('Principală');
  await field(page, 'number').fill('12');
  await page.getByRole('button', { name: t('steps:address.save') }).tap();
  await expect(page.getByText(t('steps:identity.saved')).first()).toBeVisible();
  await expect(page.getByTestId('identity-address')).toContainText('Rogoz, comuna Albac');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect((await currentRequest(request, account)).profile).toMatchObject({ city: 'Rogoz, comuna Albac', county: 'Alba', postal_code: '517018' });

  await onToOverview(page, request, account);
  // The IT activity's default, as the page shows it: replaced by tapping and typing another code.
  const primary = page.getByRole('combobox', { name: textStart(t('steps:overview.primary')) });
  await expect(primary).toHaveValue(/^6220 – /);
  await primary.tap();
  await expect(primary).toHaveValue('');
  await primary.pressSequentially('621');
  await expect(primary).toHaveValue('621');
  await page.getByRole('option', { name: /^6210 – / }).tap();
  await expect(primary).toHaveValue(/^6210 – Activități de realizare a soft-ului/);
  await expect.poll(async () => ((await currentRequest(request, account)).form_data.codes as number[])?.length).toBe(1);
  const { payload } = (await (await request.get('/api/registration/overview', { headers: { authorization: `Bearer ${account.token}`, 'x-requested-with': 'XMLHttpRequest' } })).json()) as {
    payload: { codes: { code: string }[] };
  };
  expect(payload.codes.map((c) => c.code)).toEqual(['6210']);
});

test('a card read by the provider: its address matched to the register and saved, the step goes on', async ({ page, request }) => {
  test.setTimeout(60_000);
  const account = await approvedWith(page, request, 'buletin');
  // The simulator's card address matched one locality: nothing to type.
  await expect(page.getByTestId('identity-missing-address')).toHaveCount(0);
  const profile = (await currentRequest(request, account)).profile;
  expect(profile).toMatchObject({ county_id: expect.any(Number), city_id: expect.any(Number), street: expect.any(String), number: expect.any(String) });
  await expect(page.getByTestId('identity-address')).toContainText(String(profile.city));
  await expect(identityNext(page)).toBeEnabled();
});

test('a card address whose village is not certain: shown as read, the applicant picks the locality', async ({ page, request }) => {
  test.setTimeout(60_000);
  const account = await approvedWith(page, request, 'buletin-adresa-nesigura');
  const read = String((await currentRequest(request, account)).profile.document_address);
  await expect(page.getByText(t('steps:identity.documentAddress', { address: read }))).toBeVisible();
  await expect(identityNext(page)).toBeDisabled();
  await page.getByRole('button', { name: t('steps:identity.edit') }).tap();
  // The county and the street came from the card; the locality is the applicant's to pick.
  await expect(picker(page, 'county')).not.toHaveValue('');
  await expect(picker(page, 'city')).toHaveValue('');
  const village = read.match(/Sat\.? ([^,]+?)(?: nr\.|,|$)/i)?.[1]?.trim() ?? '';
  expect(village).not.toBe('');
  await picker(page, 'city').tap();
  await picker(page, 'city').pressSequentially(village.slice(0, 5));
  const options = page.getByRole('option', { name: new RegExp(`^${village}, `, 'i') });
  await expect(options.nth(1)).toBeVisible();
  await options.first().tap();
  if (!(await field(page, 'street').inputValue())) await field(page, 'street').fill('Principală');
  if (!(await field(page, 'number').inputValue())) await field(page, 'number').fill('3');
  if (!(await field(page, 'placeOfBirth').inputValue())) await field(page, 'placeOfBirth').fill('Alba Iulia');
  await page.getByRole('button', { name: t('steps:address.save') }).tap();
  await expect(page.getByText(t('steps:identity.saved')).first()).toBeVisible();
  await expect(identityNext(page)).toBeEnabled();
});
