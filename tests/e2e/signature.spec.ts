/**
 * The signature step (new-PFA step 5) in Chromium against the real server: drawing with the mouse
 * uploads semnatura.png and moves on; a saved signature is reused without a new upload and can be
 * deleted; a phone draws with touch; the drawing survives a window resize.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { drawSignature } from './drivers';
import { auth, currentRequest, expect, newApplicantAt, PHONE, test, type RegisteredAccount } from './fixtures';
import { flowStepText, localeText } from '../copy';

async function atSignatureStep(page: Page, request: APIRequestContext): Promise<RegisteredAccount> {
  const account = await newApplicantAt(page, request, 5);
  await expect(page.getByRole('img', { name: localeText('steps:signature.padLabel') })).toBeVisible();
  return account;
}

/** Whether the pad's canvas has any drawn pixel. */
function padHasInk(page: Page): Promise<boolean> {
  return page.getByTestId('signature-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  });
}

test('mouse: the drawing is uploaded as semnatura.png; back on the step the saved one is reused, and can be deleted', async ({ page, request }) => {
  const account = await atSignatureStep(page, request);
  const next = page.getByRole('button', { name: flowStepText('requesting-company-step-5', 'submit') });
  await expect(next).toBeDisabled();
  await expect(page.getByText(localeText('steps:signature.consent'))).toBeVisible();

  await drawSignature(page);
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/6$/);
  const after = await currentRequest(request, account);
  const saved = (after.media as Record<string, { id: number; url: string } | null>).signature_document!;
  const file = await request.get(saved.url, { headers: auth(account) });
  expect(file.headers()['content-type']).toBe('image/png');
  expect((await file.body()).subarray(1, 4).toString('latin1')).toBe('PNG');

  // Back: the saved signature is shown and reused with an empty pad.
  await page.getByRole('button', { name: localeText('steps:common.previous') }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/5$/);
  await expect(page.getByText(localeText('steps:signature.saved'))).toBeVisible();
  await expect(page.getByRole('img', { name: localeText('steps:signature.savedAlt') })).toBeVisible();
  await expect(next).toBeEnabled();
  await next.click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/6$/);
  expect((await currentRequest(request, account)).form_data.signature_file_id).toBe(saved.id);

  // Back again: deleting the saved signature leaves nothing to go on with.
  await page.getByRole('button', { name: localeText('steps:common.previous') }).click();
  await page.getByRole('button', { name: localeText('steps:signature.deleteSaved') }).click();
  await expect(page.getByText(localeText('steps:signature.saved'))).toHaveCount(0);
  await expect(next).toBeDisabled();
  expect((await request.get(saved.url, { headers: auth(account) })).status()).toBe(404);
});

test('the drawing stays on the pad when the window is resized; "Șterge" clears it', async ({ page, request }) => {
  await atSignatureStep(page, request);
  await drawSignature(page);
  expect(await padHasInk(page)).toBe(true);
  await page.setViewportSize({ width: 900, height: 700 });
  await expect.poll(() => padHasInk(page)).toBe(true);
  await expect(page.getByRole('button', { name: flowStepText('requesting-company-step-5', 'submit') })).toBeEnabled();
  await page.getByRole('button', { name: `${localeText('steps:signature.clear')} ${localeText('steps:signature.clearWhat')}` }).click();
  expect(await padHasInk(page)).toBe(false);
  await expect(page.getByRole('button', { name: flowStepText('requesting-company-step-5', 'submit') })).toBeDisabled();
});

test.describe('on a phone', () => {
  test.use(PHONE);

  test('signing with a finger (touch events) uploads the signature', async ({ page, request }) => {
    const account = await atSignatureStep(page, request);
    const box = (await page.getByTestId('signature-canvas').boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(393);
    const cdp = await page.context().newCDPSession(page);
    const point = (fx: number, fy: number) => [{ x: box.x + box.width * fx, y: box.y + box.height * fy }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0.2, 0.5) });
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(0.2 + i * 0.06, i % 2 ? 0.3 : 0.7) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    expect(await padHasInk(page)).toBe(true);
    await page.getByRole('button', { name: flowStepText('requesting-company-step-5', 'submit') }).click();
    await expect(page).toHaveURL(/\/infiintare-pfa\/6$/);
    expect((await currentRequest(request, account)).form_data.signature_file_id).toEqual(expect.any(Number));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
