/**
 * The overview step (new-PFA step 7, "Dosarul tău este gata") in Chromium against the real server:
 * inline edit of the CNP with a bad and a good value, the CAEN search and the primary-code rule,
 * the registered-office popup: keeping the office, or leaving for one of its two services.
 */
import type { Envelope } from '@/core/api-types';
import type { Locator } from '@playwright/test';
import { auth, currentRequest, expect, newApplicantAt, test } from './fixtures';
import { localeText, textStart } from '../copy';

/** Where an element is on the page (not in the viewport: typing may scroll it), in CSS pixels. */
const pageBox = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
  });

test('inline CNP edit, CAEN search and the primary rule', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  await expect(page.getByRole('heading', { level: 1, name: localeText('steps:overview.title') })).toBeVisible();

  await page.getByRole('button', { name: `${localeText('steps:overview.edit')} ${localeText('steps:overview.personalCode')}` }).click();
  const cnp = page.getByRole('textbox', { name: localeText('steps:overview.personalCode') });
  await cnp.fill('1234567890123');
  await page.getByRole('button', { name: localeText('steps:overview.save') }).click();
  await expect(page.getByText(/^CNP-ul (nu conține o dată de naștere validă|nu este valid: cifra de control nu corespunde)\.$/)).toBeVisible();
  await cnp.fill('1900101410011');
  await page.getByRole('button', { name: localeText('steps:overview.save') }).click();
  await expect(page.getByText(localeText('steps:overview.saved')).first()).toBeVisible();
  expect((await currentRequest(request, account)).profile.personal_code).toBe('1900101410011');

  // A secondary code needs a primary one first.
  await page.getByRole('button', { name: localeText('steps:overview.addSecondary') }).click();
  await expect(page.getByText(localeText('steps:overview.secondaryNeedsPrimary'))).toBeVisible();
  const primary = page.getByRole('combobox', { name: textStart(localeText('steps:overview.primary')) });
  await primary.fill('620');
  await page.getByRole('option', { name: /^6210/ }).click();
  await expect(primary).toHaveValue(/^6210 – /);
  // The primary row cannot be deleted.
  await expect(page.getByRole('button', { name: localeText('steps:overview.removeCode', { code: '6210' }) })).toHaveCount(0);
  await expect.poll(async () => ((await currentRequest(request, account)).form_data.codes as unknown[] | undefined)?.length ?? 0).toBe(1);
});

test('the step is drawn before the CAEN combobox’s and the popup’s scripts; the combobox takes its stand-in’s place, with what was typed', async ({ page, request }) => {
  // The combobox's chunk (Zag's machine, its popper) is held back, as on a slow connection.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const asked: string[] = [];
  await page.route(/\/assets\/(ServerCombobox|dialog|OfficeDialog)-[\w-]+\.js$/, async (route) => {
    asked.push(new URL(route.request().url()).pathname);
    if (/\/ServerCombobox-/.test(route.request().url())) await held;
    await route.continue();
  });
  await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  await expect(page.getByText(localeText('steps:overview.caenIntro', { max: 5 }))).toBeVisible();
  // Meanwhile: a labelled text field where the combobox goes (not a combobox: it cannot list yet).
  const standIn = page.getByRole('textbox', { name: textStart(localeText('steps:overview.primary')) });
  await expect(standIn).toHaveAttribute('placeholder', localeText('steps:overview.searchPlaceholder'));
  await expect(page.getByRole('combobox')).toHaveCount(0);
  const where = await pageBox(standIn);
  await standIn.click();
  await standIn.pressSequentially('620');
  // The popup's scripts come once the step is on screen, before anyone asks for it.
  await expect.poll(() => asked.filter((path) => /\/(OfficeDialog|dialog)-/.test(path)).length).toBe(2);

  release();
  const combobox = page.getByRole('combobox', { name: textStart(localeText('steps:overview.primary')) });
  await expect(combobox).toBeFocused();
  await expect(combobox).toHaveValue('620');
  // In the same place, at the same size: nothing on the page moves.
  expect(await pageBox(combobox)).toEqual(where);
  await page.getByRole('option', { name: /^6210/ }).click();
  await expect(combobox).toHaveValue(/^6210 – /);
});

test('registered office at home: the popup keeps the office at the product, or leaves the flow', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  const home = page.getByRole('radio', { name: localeText('steps:overview.officeHome') });
  const product = page.getByRole('radio', { name: textStart(localeText('steps:overview.officeProduct')) });
  await expect(product).toBeChecked();

  await page.locator('label', { has: home }).click();
  const dialog = page.getByRole('alertdialog', { name: localeText('steps:overview.homeDialogTitle') });
  await expect(dialog).toBeVisible();
  // The popup takes the focus (a keyboard or screen-reader user is in it), and gives it back on closing.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role=alertdialog]') != null)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(product).toBeChecked();
  await expect(home).toBeFocused();
  await page.locator('label', { has: home }).click();
  await dialog.getByRole('button', { name: localeText('steps:overview.keepOffice') }).click();
  await expect(dialog).toHaveCount(0);
  await expect(product).toBeChecked();

  // The two services of server/db/seed/office-services.json; the external sites are answered here, not fetched.
  const visited: string[] = [];
  await page.route(/^https:\/\/(portal\.onrc\.ro|www\.ceccar\.ro)\//, async (route) => {
    visited.push(route.request().url());
    await route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Serviciu extern</title><h1>Serviciu extern</h1>' });
  });
  await page.locator('label', { has: home }).click();
  const services = page.getByRole('alertdialog').getByRole('list', { name: localeText('steps:overview.servicesLabel') });
  await expect(services.getByRole('listitem')).toHaveCount(2);
  await expect(services.getByText('Portalul ONRC', { exact: true })).toBeVisible();
  await expect(services.getByText('Un expert contabil CECCAR', { exact: true })).toBeVisible();
  await services.getByRole('button', { name: localeText('steps:overview.goToService', { name: 'Portalul ONRC' }) }).click();
  // Leaves for the service's site, never for the questionnaire's dead-end page.
  await expect(page).toHaveURL('https://portal.onrc.ro/');
  await expect(page.getByRole('heading', { name: 'Serviciu extern' })).toBeVisible();
  expect(visited).toEqual(['https://portal.onrc.ro/']);
  const state = await currentRequest(request, account);
  expect(state.status).toBe('lost');
  expect(state.lost_reason).toBe('sediu-la-client');
});

test('registered office at home: the second service leaves for its own site', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  await page.route(/^https:\/\/www\.ceccar\.ro\//, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>CECCAR</title><h1>CECCAR</h1>' }));
  await page.locator('label', { has: page.getByRole('radio', { name: localeText('steps:overview.officeHome') }) }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: localeText('steps:overview.goToService', { name: 'Un expert contabil CECCAR' }) }).click();
  await expect(page).toHaveURL('https://www.ceccar.ro/');
  expect((await currentRequest(request, account)).lost_reason).toBe('sediu-la-client');
});

test('back on the overview after sending: nothing is editable and "Status dosar" opens the status page', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it', address_type: 1 } });
  // A complete dossier: home address and place of birth, CNP, a primary code (through the API).
  const { data: counties } = ((await (await request.get('/api/nomenclature/county/index/0/42?search_term=Cluj')).json()) as Envelope<{ data: { id: number }[] }>).payload;
  const { data: cities } = ((await (await request.get(`/api/nomenclature/city/index/0/25?county_id=${counties[0].id}&search_term=Cluj-Napoca`)).json()) as Envelope<{ data: { id: number }[] }>).payload;
  const info = await request.post('/api/registration/update-user-info', {
    headers: auth(account),
    data: { first_name: 'Ana', last_name: 'Popescu', place_of_birth: 'Cluj-Napoca', county_id: counties[0].id, city_id: cities[0].id, street: 'Memorandumului', number: '28' },
  });
  expect(info.ok()).toBe(true);
  const { data: codes } = ((await (await request.get('/api/nomenclature/code/index/0/25?search_term=6210')).json()) as Envelope<{ data: { id: number }[] }>).payload;
  const edit = await request.post('/api/registration/update/form-data', { headers: auth(account), data: { personal_code: '2900101123459', codes: [codes[0].id] } });
  expect(edit.ok(), await edit.text()).toBe(true);
  const sent = await request.post('/api/registration/send', { headers: auth(account), data: { address_type: 1, current_step_identifier: 'requesting-company-step-7' } });
  expect(sent.ok(), await sent.text()).toBe(true);
  expect((await currentRequest(request, account)).status).toBe('submitted');

  await page.goto('/infiintare-pfa');
  await expect(page).toHaveURL(/\/infiintare-pfa\/8$/);
  await page.getByRole('button', { name: localeText('steps:common.previous') }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/7$/);
  await expect(page.getByRole('button', { name: `${localeText('steps:overview.edit')} ${localeText('steps:overview.personalCode')}` })).toHaveCount(0);
  await page.getByRole('button', { name: localeText('steps:overview.statusButton') }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
});
