import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { axeViolations } from './axe';
import { addStaffViaApi, expect, signInStaffBrowser, test } from './fixtures';
import { previewFlowsDir } from './preview-flows';
import { flowStepText, localeText } from '../copy';

/**
 * The staff preview (/staff/preview, issue 18): QA's check per flow file from the staff side (every
 * step × partner × activity variant × state of both flow files, in both languages, without a
 * console error), an edit of the server's copy of a flow file showing at the next reload, "Pasul
 * următor" showing the payload or the field errors, and axe.
 */

/** Script errors and console errors of the page from now on (but `expected`: the browser's own line for an answer the test asks for). */
function recordErrors(page: Page, expected?: RegExp): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected?.test(message.text())) errors.push(message.text());
  });
  return errors;
}

// Every test as an editor (the preview's role), signed in before the first page.
test.beforeEach(async ({ page, request }) => {
  await signInStaffBrowser(page, await addStaffViaApi(request, 'editor'));
});

async function openPreview(page: Page, query = '') {
  await page.goto(`/staff/preview${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Previzualizarea pașilor' })).toBeVisible();
}

/** The step region (the applicant's view) of the chosen entry, once its heading and buttons show. */
async function shownStep(page: Page, stepId: string) {
  await expect(page.getByTestId('preview-step-id')).toHaveText(stepId);
  const region = page.locator('section[lang]');
  const heading = region.locator(`#${stepId}-title`);
  await expect(heading).toBeVisible();
  // A missing locale key would show as the key itself.
  await expect(heading).not.toHaveText(/^[a-zA-Z]+:[\w.]+$/);
  return region;
}

test('renders every step × variant of both flow files in both languages without a console error', async ({ page }) => {
  test.setTimeout(900_000);
  const errors = recordErrors(page);
  for (const language of ['ro', 'en'] as const) {
    await openPreview(page, `?lng=${language}`);
    await expect(page.getByText('flows:check nu a găsit nicio problemă.')).toBeVisible();
    const links = page.getByTestId('preview-entry');
    const targets = await links.evaluateAll((as) => as.map((a) => ({ href: a.getAttribute('href') ?? '', name: a.getAttribute('aria-label') ?? '' })));
    const files = new Set(targets.map((t) => new URL(t.href, 'http://x').searchParams.get('flow')));
    expect([...files].sort()).toEqual(['existing-pfa.json', 'new-pfa.json']);
    // Both flow files: every step of each, with the partners' and activities' variants.
    expect(targets.length).toBeGreaterThan(70);
    for (const [i, target] of targets.entries()) {
      const stepId = new URL(target.href, 'http://x').searchParams.get('step')!;
      await links.nth(i).click();
      const region = await shownStep(page, stepId);
      await expect(region).toHaveAttribute('lang', language);
      await expect(page.getByTestId('preview-step-json')).toContainText(`"id": "${stepId}"`);
      expect(errors, `${target.name} (${language})`).toEqual([]);
    }
  }
});

test('"Pasul următor" shows the payload the step would send, or the field errors, and writes nothing', async ({ page }) => {
  // The refused fiscal code: Chromium logs the validation's 422 answer itself.
  const errors = recordErrors(page, /^Failed to load resource: the server responded with a status of 422/);
  // Every call but reads goes to the preview's validation: no step route, nothing written.
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await openPreview(page, '?flow=new-pfa.json&step=requesting-company-step-8&partner=neafiliat&activity=&state=start&lng=ro');
  let region = await shownStep(page, 'requesting-company-step-8');
  await region.getByRole('button', { name: flowStepText('requesting-company-step-8', 'submit') }).click();
  const result = page.getByTestId('preview-result');
  await expect(result).toContainText('POST /api/registration/collect/card');
  await expect(result).toContainText('"ghiseu_card_requested": 1');
  await expect(result).toContainText('"current_step_identifier": "requesting-company-step-8"');

  // The fiscal code emptied (the applicant's button would wait): the server's field error under the field.
  await openPreview(page, '?flow=existing-pfa.json&step=existing-company-step-2&partner=neafiliat&activity=&state=start&lng=ro');
  region = await shownStep(page, 'existing-company-step-2');
  const field = region.getByLabel(localeText('steps:fiscalCode.label'));
  await expect(field).toHaveValue('42157397');
  await field.fill('');
  await region.getByRole('button', { name: flowStepText('existing-company-step-2', 'submit') }).click();
  await expect(result).toContainText('Serverul ar refuza datele: erorile sunt afișate sub câmpuri.');
  await expect(region.getByText('Valoarea nu este validă.')).toBeVisible();
  expect(errors).toEqual([]);
  expect([...new Set(calls)]).toEqual(['POST /api/staff/preview/validate']);
});

test("an edit of the server's copy of a flow file shows at the next reload, and flows:check's problems at the top", async ({ page }) => {
  const file = path.join(previewFlowsDir(), 'new-pfa.json');
  const original = fs.readFileSync(file, 'utf8');
  const query = '?flow=new-pfa.json&step=requesting-company-step-8&partner=neafiliat&activity=&state=start&lng=ro';
  try {
    await openPreview(page, query);
    await expect((await shownStep(page, 'requesting-company-step-8')).getByRole('heading', { level: 1 })).toHaveText(flowStepText('requesting-company-step-8', 'title'));

    const flow = JSON.parse(original);
    const card = flow.steps.find((s: { id: string }) => s.id === 'requesting-company-step-8');
    card.title = 'steps:civilStatus.title';
    fs.writeFileSync(file, JSON.stringify(flow, null, 2));
    await page.reload();
    await expect((await shownStep(page, 'requesting-company-step-8')).getByRole('heading', { level: 1 })).toHaveText(localeText('steps:civilStatus.title'));
    await expect(page.getByTestId('preview-step-json')).toContainText('"title": "steps:civilStatus.title"');

    card.title = 'steps:card.titluNou';
    fs.writeFileSync(file, JSON.stringify(flow, null, 2));
    await page.reload();
    await expect(page.getByTestId('flows-check-problems')).toContainText('new-pfa.json#/steps/8/title: locale key steps:card.titluNou is missing in locales/ro');
  } finally {
    fs.writeFileSync(file, original);
  }
});

test('the preview page has no axe violations', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openPreview(page, '?flow=new-pfa.json&step=requesting-company-step-2&partner=icredit&activity=&state=start&lng=ro');
  const region = await shownStep(page, 'requesting-company-step-2');
  await expect(region.getByRole('button', { name: flowStepText('requesting-company-step-2', 'submit') })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});
