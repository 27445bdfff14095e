/**
 * The wizard engine in the real browser against the real server: a step answered in one tab is
 * not answered twice from another (409 with the current request, the tab moves on), a double click
 * advances once, and the step guard keeps the URL on the server's current step.
 */
import type { APIRequestContext } from '@playwright/test';
import type { Envelope, RegistrationRequest } from '@/core/api-types';
import { expect, registerViaApi, signInBrowser, test, type RegisteredAccount } from './fixtures';
import { flowStepText, localeText } from '../copy';

async function current(request: APIRequestContext, account: RegisteredAccount, path = '/api/registration/open'): Promise<RegistrationRequest> {
  const res = await request.get(path, { headers: { authorization: `Bearer ${account.token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<RegistrationRequest>).payload;
}

test('two tabs: the second answer of the same step is refused, nothing advances twice, and the tab catches up', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 2 });
  await signInBrowser(page, account);
  const second = await page.context().newPage();
  await page.goto('/infiintare-pfa');
  await second.goto('/infiintare-pfa');
  for (const tab of [page, second]) {
    await expect(tab).toHaveURL(/\/infiintare-pfa\/0$/);
    await tab.locator('label', { has: tab.getByRole('checkbox', { name: 'Niciuna dintre acestea', exact: true }) }).click();
  }

  await page.getByRole('button', { name: localeText('steps:questionnaire.submit') }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/1$/);
  expect((await current(request, account)).step).toBe('requesting-company-step-1');

  await second.getByRole('button', { name: localeText('steps:questionnaire.submit') }).click();
  await expect(second.getByText(localeText('steps:common.staleStep'))).toBeVisible();
  await expect(second).toHaveURL(/\/infiintare-pfa\/1$/);
  await expect(second.getByTestId('wizard-progress')).toHaveText(localeText('steps:common.progress', { position: 2, total: 10 }));
  expect((await current(request, account)).step).toBe('requesting-company-step-1');
});

test('a double click on the card step sends once', async ({ page, request }) => {
  const account = await registerViaApi(request, { type: 1 });
  await current(request, account, '/api/registration/existing/open');
  const placed = await request.post('/__test/place-at-step', {
    headers: { authorization: `Bearer ${account.token}` },
    data: { step: 'existing-company-step-7' },
  });
  expect(placed.ok()).toBe(true);
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/registration/')) posts.push(r.url());
  });
  await signInBrowser(page, account);
  await page.goto('/inregistrare');
  await expect(page).toHaveURL(/\/inregistrare\/7$/);
  await page.locator('label', { has: page.getByRole('radio', { name: localeText('steps:card.no'), exact: true }) }).click();
  const send = page.getByRole('button', { name: flowStepText('existing-company-step-7', 'submit') });
  await send.dblclick();
  await expect(page).toHaveURL(/\/inregistrare\/6$/);
  expect(posts).toHaveLength(1);
  const state = await current(request, account, '/api/registration/existing/open');
  expect(state.step).toBe('existing-company-step-6');
  expect(state.form_data.ghiseu_card_requested).toBe(0);
});
