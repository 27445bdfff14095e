/**
 * axe on every screen of both flow files (issue 17): each step as it opens and the states its
 * widgets pass through (identity: QR code, uploads, approval without and with the address, the
 * address form; documents: the power-of-attorney screen; the overview's home-office popup), the
 * variants of partners and activities, the payment page, the payment confirmation pages and the
 * status page, on a 360×640 phone and a 1280×800 desktop. Every screen must have 0 violations;
 * each is checked softly, so one run names all of them.
 * Issue 31: the search lists open (the overview's CAEN list idle, with nothing found and with codes;
 * the county and city lists of an address form), and the dashboard hand-over page `/sso/:token`.
 */
import type { Page } from '@playwright/test';
import { axeViolations, VIEWPORTS } from './axe';
import { choosePlace, drivers } from './drivers';
import { auth, expect, newApplicantAt, registerViaApi, signInBrowser, test } from './fixtures';
import { partners, readFlow, t, walkFlow } from './walk';
import { localeText, textStart } from '../copy';

// The walks are long and independent: spread over the workers.
test.describe.configure({ mode: 'parallel' });

const newPfa = readFlow('flows/new-pfa.json');
const existingPfa = readFlow('flows/existing-pfa.json');
const partner = (slug: string) => partners.find((p) => p.slug === slug)!;

/** Checks the page as it is now; the label names the screen in the report. */
function checker(page: Page, size: string) {
  return async (label: string) => {
    expect.soft(await axeViolations(page), `${size}: ${label}`).toEqual([]);
  };
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`axe, ${size} ${viewport.width}×${viewport.height}`, () => {
    test.use(size === 'phone' ? { viewport, isMobile: true, hasTouch: true } : { viewport });

    for (const [walk, slug] of ['neafiliat', 'icredit', 'curier'].entries()) {
      test(`new PFA, partner ${slug}: every screen of the walk`, async ({ page, request }) => {
        test.setTimeout(240_000);
        await walkFlow({ page, request, flow: newPfa, partner: partner(slug), walk, screen: checker(page, size) });
      });
    }

    for (const [walk, slug] of ['neafiliat', 'icredit'].entries()) {
      test(`existing PFA, partner ${slug}: every screen of the walk`, async ({ page, request }) => {
        test.setTimeout(240_000);
        await walkFlow({ page, request, flow: existingPfa, partner: partner(slug), walk, screen: checker(page, size) });
      });
    }

    test('new PFA: the documents step of every activity variant, with its power-of-attorney screen', async ({ page, request }) => {
      test.setTimeout(180_000);
      const check = checker(page, size);
      for (const [activity, slug] of [['curier'], ['taxi'], ['consultant-credite'], ['psihoterapeut'], ['medicina'], ['consultant-credite', 'icredit']] as [string, string?][]) {
        await newApplicantAt(page, request, 3, { partnerSlug: slug, formData: { activity } });
        // "Send later" for the diploma and the licence or certificate block, then the power-of-attorney screen.
        await drivers.documents(page, { send_diploma_later: true, driver_license_status: 1 }, { request, registrationType: 2, screen: (label) => check(`documents, ${activity}${slug ? `, ${slug}` : ''}: ${label}`) });
      }
    });

    test('new PFA: the overview without a code, for operators (unknown activity), the home-office popup, sent', async ({ page, request }) => {
      test.setTimeout(120_000);
      const check = checker(page, size);
      const profile = { questionnaire: ['niciuna'] };
      await newApplicantAt(page, request, 7, { formData: { ...profile, activity: 'question-mark', activity_details: 'Olărit' } });
      await expect(page.getByRole('heading', { name: localeText('steps:overview.caenTitle') })).toBeVisible();
      await check('overview, unknown activity');

      const account = await newApplicantAt(page, request, 7, { formData: { ...profile, activity: 'design-grafic' } });
      await expect(page.getByRole('heading', { name: localeText('steps:overview.caenTitle') })).toBeVisible();
      await expect(page.getByRole('radio', { name: textStart(localeText('steps:overview.officeProduct')) })).toBeChecked();
      await check('overview');
      const home = page.getByRole('radio', { name: textStart(localeText('steps:overview.officeHome')) });
      await page.locator('label', { has: home }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await check('overview, home-office popup');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      const sent = await request.post('/__test/place-at-step', { headers: auth(account), data: { step: 'requesting-company-step-7', form_data: { submitted_at: new Date().toISOString() } } });
      expect(sent.ok()).toBe(true);
      await page.reload();
      await expect(page.getByRole('heading', { name: localeText('steps:overview.caenTitle') })).toBeVisible();
      await check('overview, dossier sent');
    });

    test('the overview’s CAEN list open: the hint, nothing found, codes', async ({ page, request }) => {
      const check = checker(page, size);
      await newApplicantAt(page, request, 7, { formData: { activity_id: 1, activity: 'consultanta-it' } });
      const primary = page.getByRole('combobox', { name: new RegExp(`^${t('steps:overview.primary')}`) });
      const status = page.getByRole('status').filter({ has: page.getByText(t('steps:overview.searchHint')) });
      await primary.click();
      await expect(status).toBeVisible();
      await check('overview, CAEN list open (at least 3 characters)');
      // Nothing in either CAEN revision is named so: the list says it found nothing.
      await primary.pressSequentially('qqq');
      await expect(page.getByText(t('steps:overview.searchEmpty'))).toBeVisible();
      await expect(page.getByRole('option')).toHaveCount(0);
      await check('overview, CAEN list open, nothing found');
      // Most codes' names start with "Activități".
      await primary.fill('');
      await primary.pressSequentially('activit');
      await expect(page.getByRole('option').first()).toBeVisible();
      await check('overview, CAEN list open with codes');
    });

    test('an address form’s county and city lists open, and a county search that finds nothing', async ({ page, request }) => {
      const check = checker(page, size);
      await newApplicantAt(page, request, 6);
      const custom = page.getByRole('radio', { name: textStart(localeText('steps:mailingAddress.custom')) });
      await page.locator('label', { has: custom }).click();
      const county = page.getByRole('combobox', { name: new RegExp(`^${t('steps:address.county')}`) });
      await county.click();
      await expect(page.getByRole('option').first()).toBeVisible();
      await check('mailing address, county list open');
      await county.pressSequentially('qqq');
      await expect(page.getByText(t('steps:address.noCounty'))).toBeVisible();
      await check('mailing address, county list, nothing found');
      await page.keyboard.press('Escape');
      await choosePlace(page, t('steps:address.county'), 'Cluj', 'Cluj');
      const city = page.getByRole('combobox', { name: new RegExp(`^${t('steps:address.city')}`) });
      await city.click();
      await expect(page.getByRole('option').first()).toBeVisible();
      await check('mailing address, city list open');
    });

    test('the dashboard hand-over page /sso/:token, and its answer to a link no longer valid', async ({ page, request }) => {
      const check = checker(page, size);
      const account = await registerViaApi(request, { type: 1 });
      await page.goto(`/sso/${account.token}`);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      await check('/sso/:token');
      await page.goto('/sso/nu-mai-este-valid');
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
      await check('/sso/:token, link no longer valid');
    });

    test('payment confirmation pages (waiting, cancelled), questionnaire info page, status page', async ({ page, request }) => {
      test.setTimeout(120_000);
      const check = checker(page, size);
      await newApplicantAt(page, request, 9);
      for (const route of ['/infiintare-pfa/plata', '/infiintare-pfa/plata?anulata=1']) {
        await page.goto(route);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await check(route);
      }

      // An "Am PFA" applicant (the last signed-in user is the one the browser keeps).
      await signInBrowser(page, await registerViaApi(request, { type: 1 }));
      await page.goto('/inregistrare/plata');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check('/inregistrare/plata');

      await page.goto('/inregistrare/1');
      const reasons = await request.get('/api/nomenclature/lost-reasons/index?registration_type=1');
      const first = ((await reasons.json()) as { payload: { identifier: string; fe_text: string }[] }).payload.find((r) => r.identifier !== 'niciuna')!;
      const box = page.getByRole('checkbox', { name: first.fe_text, exact: true });
      await page.locator('label', { has: box }).click();
      await page.getByRole('button', { name: localeText('steps:questionnaire.submit') }).click();
      await expect(page).toHaveURL(/\/inregistrare\/chestionar\/info$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check('/inregistrare/chestionar/info');

      const status = await newApplicantAt(page, request, 9, { formData: { submitted_at: new Date().toISOString() } });
      const paid = await request.post('/api/stripe/pay/simulate', { headers: auth(status), data: { current_step_identifier: 'requesting-company-step-9' } });
      expect(paid.ok()).toBe(true);
      await page.goto('/infiintare-pfa/status');
      await expect(page.getByRole('heading', { level: 1, name: 'Status Dosar' })).toBeVisible();
      await check('/infiintare-pfa/status');
    });
  });
}
