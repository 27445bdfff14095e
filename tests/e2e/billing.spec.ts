/**
 * Issue 17 items 4, 5 and 11 as the applicant sees them: the plan prices (and the 130 → 72
 * footnote) on /register/account; the built-in checkout's two phases; back from paying, the page
 * says the payment is being confirmed, then the status page shows "Plata a fost primită" with the
 * amount and the day, and exactly one receipt is in the outbox.
 */
import { auth, currentRequest, expect, newApplicantAt, outbox, test } from './fixtures';
import { localeText } from '../copy';

const dayInRomania = (date: Date) =>
  new Intl.DateTimeFormat('ro-RO', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/Bucharest' }).format(date);

test('/register/account: each subscription type shows its price, the credit partner’s with the 130 → 72 footnote', async ({ page }) => {
  await page.goto('/register');
  await page.locator('label', { has: page.getByRole('radio', { name: /Vreau PFA/ }) }).click();
  await expect(page).toHaveURL(/\/register\/account$/);
  const plans = page.getByTestId('plan');
  await expect(plans).toHaveCount(3);
  await expect(plans.filter({ hasText: 'Standard' }).getByTestId('plan-price')).toHaveText('119 lei/lună');
  await expect(plans.filter({ hasText: 'iCredit' }).getByTestId('plan-price')).toHaveText('130 lei/lună în primele 3 luni, apoi 72 lei/lună *');
  await expect(plans.filter({ hasText: 'Curieri parteneri' }).getByTestId('plan-price')).toHaveText('119 lei/lună');
  await expect(page.getByTestId('plan-footnote')).toHaveText(['* iCredit: 130 lei/lună în primele 3 luni, inclusiv înființarea, apoi 72 lei/lună începând cu luna a patra.']);
  // The price is announced with the choice.
  await expect(page.getByRole('radio', { name: 'iCredit' })).toHaveAccessibleDescription('130 lei/lună în primele 3 luni, apoi 72 lei/lună *');
  await expect(page.getByRole('radio', { name: 'Standard' })).toHaveAccessibleDescription('119 lei/lună');
});

test('/register/account/icredit: the partner’s plan, locked, with its price and footnote', async ({ page }) => {
  await page.goto('/register/icredit');
  await page.locator('label', { has: page.getByRole('radio', { name: /Vreau PFA/ }) }).click();
  await expect(page).toHaveURL(/\/register\/account\/icredit$/);
  await expect(page.getByText('Tipul de abonament este stabilit de partenerul prin care ai ajuns aici.')).toBeVisible();
  await expect(page.getByRole('radio', { name: /iCredit/ })).toBeChecked();
  await expect(page.getByTestId('plan-footnote')).toContainText('apoi 72 lei/lună începând cu luna a patra');
});

test('paid with the built-in checkout: "Confirmăm plata…", then "Plata a fost primită" with amount and day on the status page; one receipt', async ({ page, request, context }) => {
  const account = await newApplicantAt(page, request, 9, { partnerSlug: 'icredit' });
  await page.getByRole('button', { name: localeText('steps:pricing.submit') }).click();
  await expect(page).toHaveURL(/\/checkout\/pay_[\w-]+$/);
  await expect(page.getByTestId('checkout-amount')).toHaveText('130,00 lei / lună');
  await expect(page.getByTestId('checkout-phases').getByRole('listitem')).toHaveText([
    '130,00 lei / lună în primele 3 luni (acum plătești prima lună)',
    'apoi 72,00 lei / lună, începând cu luna 4',
  ]);

  // Back from the payment page the app starts afresh; while its first check is under way, the page says what it is doing.
  await context.clearCookies({ name: 'dashboard_redirect' });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/user/dashboard-redirect', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Plătește' }).click();
  await expect(page).toHaveURL(/\/infiintare-pfa\/plata\?plata=pay_/);
  await expect(page.getByRole('status').filter({ hasText: 'Confirmăm plata…' })).toBeVisible();
  release();

  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
  const paid = await currentRequest(request, account);
  expect(paid.paid).toBe(true);
  const card = page.getByTestId('timeline-item').filter({ hasText: 'Plata a fost primită' });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Am primit plata de 130,00 lei pentru abonament.');
  await expect(card).toContainText('Abonamentul tău: 130,00 lei pe lună în primele 3 luni, apoi 72,00 lei pe lună.');
  await expect(card).toContainText('Ți-am trimis confirmarea plății pe e-mail.');
  await expect(card.locator('time')).toHaveText(dayInRomania(new Date(paid.paid_at as string)));

  const receipts = (await outbox(request, account.email)).filter((m) => m.subject === 'Plata a fost primită – Ghișeu');
  expect(receipts).toHaveLength(1);
  expect(receipts[0].text).toContain('Suma: 130,00 lei');

  // A second look at the confirmation page (back button, reload): still one item, one receipt.
  await page.unroute('**/api/user/dashboard-redirect');
  await page.goto('/infiintare-pfa/plata');
  await expect(page).toHaveURL(/\/infiintare-pfa\/status$/);
  await expect(page.getByTestId('timeline-item').filter({ hasText: 'Plata a fost primită' })).toHaveCount(1);
  expect((await outbox(request, account.email)).filter((m) => m.subject === 'Plata a fost primită – Ghișeu')).toHaveLength(1);
  const again = await request.get('/api/registration/open', { headers: auth(account) });
  expect(((await again.json()).payload.status_timeline as { type: string }[]).map((i) => i.type)).toEqual(['payment_received']);
});
