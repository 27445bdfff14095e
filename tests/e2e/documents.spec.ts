/**
 * The documents step (new-PFA step 3) in Chromium against the real server: a PDF and an image
 * uploaded with the step, a refused file with its message, the power-of-attorney screen on the
 * first press of next, send later, and the courier's driving-licence choices.
 */
import type { Page } from '@playwright/test';
import { pngImage } from './images';
import { auth, currentRequest, expect, newApplicantAt, test } from './fixtures';
import { flowStepText, localeText } from '../copy';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function chooseFiles(page: Page, button: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button, exact: true }).first().click();
  await (await chooser).setFiles(files);
}

test('a PDF and a photo go up with the step; a refused file shows its message; the attorney screen comes first', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 3, { formData: { activity_id: 1, activity: 'consultanta-it' } });
  await expect(page.getByRole('heading', { name: localeText('steps:documents.diplomaHeading') })).toBeVisible();
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-3', 'submit') });
  await expect(next).toBeDisabled();

  await chooseFiles(page, localeText('steps:documents.upload'), [
    { name: 'diploma.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'diploma-verso.png', mimeType: 'image/png', buffer: pngImage(300, 200) },
    { name: 'notite.pdf', mimeType: 'application/pdf', buffer: Buffer.from('doar text, nu un PDF') },
  ]);
  await expect(next).toBeEnabled();
  // First press: the power-of-attorney screen (100–200 lei), acknowledged on the server.
  await next.click();
  await expect(page.getByRole('heading', { name: localeText('steps:documents.attorney.title') })).toBeVisible();
  await expect(page.getByText(localeText('steps:documents.attorney.cost'))).toBeVisible();
  // Second press submits: the text file posing as a PDF is refused, nothing is stored.
  await next.click();
  await expect(page.getByText(localeText('steps:documents.uploadError')).first()).toBeVisible();
  expect((await currentRequest(request, account)).step).toBe('requesting-company-step-3');
  expect((await currentRequest(request, account)).media).toMatchObject({ diploma_documents: [] });

  await page.getByRole('button', { name: localeText('steps:documents.deleteLabel', { name: 'notite.pdf' }) }).click();
  // The next press shows the power-of-attorney screen again (awaited, not peeked at), then submits.
  await next.click();
  await expect(page.getByRole('heading', { name: localeText('steps:documents.attorney.title') })).toBeVisible();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/4$/);
  const saved = (await currentRequest(request, account)).media as { diploma_documents: { name: string; url: string }[] };
  expect(saved.diploma_documents.map((d) => d.name).sort()).toEqual(['diploma-verso.png', 'diploma.pdf']);
  const pdf = await request.get(saved.diploma_documents.find((d) => d.name === 'diploma.pdf')!.url, { headers: auth(account) });
  expect((await pdf.body()).subarray(0, 4).toString('latin1')).toBe('%PDF');
  const ack = await request.post('/api/user-meta/attorney-acknowledgement', { headers: auth(account) });
  expect(ack.ok()).toBe(true);
});

test('courier: send the diploma later and "Nu am permis de conducere"', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 3, { formData: { activity_id: 2, activity: 'curier' } });
  await expect(page.getByRole('heading', { name: localeText('steps:documents.licence.courierHeading') })).toBeVisible();
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-3', 'submit') });
  await page.getByRole('button', { name: localeText('steps:documents.sendLater'), exact: true }).first().click();
  // The licence still needs an answer.
  await expect(next).toBeDisabled();
  const none = page.getByRole('radio', { name: localeText('steps:documents.licence.none') });
  await page.locator('label', { has: none }).click();
  await expect(none).toBeChecked();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page.getByRole('heading', { name: localeText('steps:documents.attorney.title') })).toBeVisible();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/4$/);
  expect((await currentRequest(request, account)).form_data).toMatchObject({ send_diploma_later: true, driver_license_status: 0 });
});

test('courier: uploading the driving licence now', async ({ page, request }) => {
  const account = await newApplicantAt(page, request, 3, { formData: { activity_id: 2, activity: 'curier' } });
  await page.getByRole('button', { name: localeText('steps:documents.sendLater'), exact: true }).first().click();
  const upload = page.getByRole('radio', { name: localeText('steps:documents.licence.upload') });
  await page.locator('label', { has: upload }).click();
  await chooseFiles(page, localeText('steps:documents.licence.uploadButton'), [{ name: 'permis.png', mimeType: 'image/png', buffer: pngImage(320, 200) }]);
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-3', 'submit') });
  await next.click();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/4$/);
  const state = await currentRequest(request, account);
  expect(state.form_data.driver_license_status).toBe(2);
  expect((state.media as { driver_license: { name: string }[] }).driver_license.map((f) => f.name)).toEqual(['permis.png']);
});
