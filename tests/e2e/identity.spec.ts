/**
 * The identity step in the real browser against the real server and its built-in identity
 * simulator (decides 500 ms after submit in the e2e server; the page polls every 5 s): desktop
 * uploads to the next step, the decline path and restart, a phone with camera inputs, the QR
 * hand-over to a second device, and a reload in the middle.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { Envelope } from '@/core/api-types';
import { completeIdentity, uploadIdentityPhotos } from './drivers';
import { identityPhotos, jpegSize, pngImage } from './images';
import { auth, currentRequest, expect, newApplicantAt, PHONE, test, type RegisteredAccount } from './fixtures';
import { flowStepText, localeText, localePattern } from '../copy';

/** A new-PFA applicant whose request stands at the identity step (the questionnaire answered). */
async function atIdentityStep(page: Page, request: APIRequestContext): Promise<RegisteredAccount> {
  const account = await newApplicantAt(page, request, 1, { formData: { questionnaire: ['niciuna'] } });
  await expect(page.getByRole('heading', { level: 1, name: localeText('steps:identity.title') })).toBeVisible();
  return account;
}

test('desktop: three uploads, submit, approval, home address, next step', async ({ page, request }) => {
  test.setTimeout(60_000);
  const account = await atIdentityStep(page, request);
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-1', 'submit') });
  await expect(next).toBeDisabled();
  await completeIdentity(page);
  await expect(page.getByRole('img', { name: localePattern('steps:identity.previewAlt') })).toHaveCount(3);
  const state = await currentRequest(request, account);
  expect(state.profile).toMatchObject({ place_of_birth: 'Cluj-Napoca', street: 'Memorandumului', number: '28', city: 'Cluj-Napoca' });
  expect(String(state.profile.personal_code)).toMatch(/^[1-8]\d{12}$/);
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/2$/);
  expect((await currentRequest(request, account)).step).toBe('requesting-company-step-2');
});

test('declined: the simulator’s reason, then "Șterge și reîncepe procesul" starts over', async ({ page, request }) => {
  test.setTimeout(60_000);
  await atIdentityStep(page, request);
  await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
  await uploadIdentityPhotos(page, 'reject');
  await page.getByRole('button', { name: localeText('steps:identity.submit') }).click();
  await expect(page.getByText(localePattern('steps:identity.errors.rejected'))).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: flowStepText('requesting-company-step-1', 'submit') })).toBeDisabled();

  await page.getByRole('button', { name: localeText('steps:identity.restart') }).click();
  await expect(page.getByTestId('identity-qr')).toBeVisible();
  await expect(page.getByText(localePattern('steps:identity.errors.rejected'))).toHaveCount(0);
  await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
  await expect(page.getByTestId('identity-slot-document-front')).toHaveAttribute('data-state', 'empty');
});

test.describe('on a phone', () => {
  test.use(PHONE);

  test('camera inputs (rear for the ID, front for the selfie), no QR code, uploads with a tick', async ({ page, request }) => {
    await atIdentityStep(page, request);
    await expect(page.getByTestId('identity-qr')).toHaveCount(0);
    await expect(page.locator('input[name="document-front"]')).toHaveAttribute('capture', 'environment');
    await expect(page.locator('input[name="document-back"]')).toHaveAttribute('capture', 'environment');
    await expect(page.locator('input[name="face"]')).toHaveAttribute('capture', 'user');
    await expect(page.locator('input[name="face"]')).toHaveAttribute('accept', 'image/*');
    await expect(page.getByRole('button', { name: `${localeText('steps:identity.take')}: ${localeText('steps:identity.contexts.front').toLowerCase()}` })).toBeEnabled();
    await uploadIdentityPhotos(page);
    await expect(page.getByRole('button', { name: localeText('steps:identity.submit') })).toBeEnabled();
    // Mobile first: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});

test('the QR code signs a phone in at the identity step; its photos appear on the desktop', async ({ page, request, browser }) => {
  test.setTimeout(60_000);
  await atIdentityStep(page, request);
  const qr = page.getByTestId('identity-qr');
  await expect(qr).toBeVisible();
  const box = await qr.locator('svg').boundingBox();
  expect(Math.round(box!.width)).toBe(200);
  const link = await qr.getAttribute('data-link');
  expect(link).toContain('/auto-login?token=');

  const phone = await browser.newContext(PHONE);
  try {
    const phonePage = await phone.newPage();
    await phonePage.goto(link!.replace(/^https?:\/\/[^/]+/, new URL(page.url()).origin));
    await expect(phonePage).toHaveURL(/\/infiintare-pfa\/1$/);
    await phonePage.locator('input[name="document-front"]').setInputFiles(identityPhotos()['document-front']);
    await expect(phonePage.getByTestId('identity-slot-document-front')).toHaveAttribute('data-state', 'completed');

    // The desktop polls every 3 s and shows what arrived.
    await expect(page.getByRole('img', { name: localeText('steps:identity.previewAlt', { label: localeText('steps:identity.contexts.front') }) })).toBeVisible({ timeout: 10_000 });

    // The link was single-use.
    const reuse = await request.post('/api/auto-login', { data: { token: new URL(link!).searchParams.get('token') } });
    expect(reuse.ok()).toBe(false);
  } finally {
    await phone.close();
  }
});

test('a reload in the middle restores the uploads done so far', async ({ page, request }) => {
  await atIdentityStep(page, request);
  await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
  const photos = identityPhotos();
  for (const context of ['document-front', 'document-back'] as const) {
    await page.locator(`input[name="${context}"]`).setInputFiles(photos[context]);
    await expect(page.getByTestId(`identity-slot-${context}`)).toHaveAttribute('data-state', 'completed');
  }
  await page.reload();
  // Uploads exist: the desktop shows them (and the QR stays available to finish on a phone).
  await expect(page.getByTestId('identity-slot-document-front')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByTestId('identity-slot-document-back')).toHaveAttribute('data-state', 'completed');
  await expect(page.getByRole('img', { name: localeText('steps:identity.previewAlt', { label: localeText('steps:identity.contexts.back') }) })).toBeVisible();
});

test('a large photo is scaled down in the browser to 1920 px on its longest side before upload', async ({ page, request }) => {
  const account = await atIdentityStep(page, request);
  await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
  const large = pngImage(3000, 2000, [90, 120, 60]);
  await page.locator('input[name="document-front"]').setInputFiles({ name: 'fata-mare.png', mimeType: 'image/png', buffer: large });
  await expect(page.getByTestId('identity-slot-document-front')).toHaveAttribute('data-state', 'completed');

  const last = await request.get('/api/veriff/get-last-session', { headers: auth(account) });
  const { uploads } = ((await last.json()) as Envelope<{ uploads: Record<string, { preview_url: string }> }>).payload;
  const stored = await request.get(uploads['document-front'].preview_url, { headers: auth(account) });
  expect(stored.ok()).toBe(true);
  const body = await stored.body();
  expect(stored.headers()['content-type']).toBe('image/jpeg');
  expect(jpegSize(body)).toEqual({ width: 1920, height: 1280 });
});

test('a session deleted elsewhere while waiting: the page says so and reloads after 3 s, back to the start', async ({ page, request }) => {
  test.setTimeout(60_000);
  const account = await atIdentityStep(page, request);
  await page.getByRole('button', { name: localeText('steps:identity.handOver.desktop') }).click();
  await uploadIdentityPhotos(page);
  await page.getByRole('button', { name: localeText('steps:identity.submit') }).click();
  await expect(page.getByText(localeText('steps:identity.waiting'))).toBeVisible();

  // The same user deletes the session on another device before the next 5 s poll.
  const last = await request.get('/api/veriff/get-last-session', { headers: auth(account) });
  const session = ((await last.json()) as Envelope<{ session_id: string; custom_id: string }>).payload;
  const deleted = await request.delete('/api/veriff/delete-session', { headers: auth(account), data: session });
  expect(deleted.ok()).toBe(true);

  await expect(page.getByText(localeText('steps:identity.sessionLost'))).toBeVisible({ timeout: 10_000 });
  await page.waitForEvent('load', { timeout: 10_000 });
  await expect(page.getByTestId('identity-qr')).toBeVisible();
  await expect(page.getByText(localeText('steps:identity.sessionLost'))).toHaveCount(0);
});
