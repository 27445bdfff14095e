/**
 * Staff sign-in (issue 18): /staff/login, the staff guard, the layout's header and sign-out, the
 * staff session apart from the applicant's, axe on the staff pages.
 */
import { test, expect, addStaffViaApi, registerViaApi, signInBrowser, signInStaffBrowser } from './fixtures';
import { VIEWPORTS, axeViolations } from './axe';

test('a signed-out visitor of a /staff page signs in at /staff/login and comes back to it; sign-out ends the session', async ({ page, request }) => {
  const operator = await addStaffViaApi(request, 'operator');
  await page.goto('/staff/nu-exista?x=1');
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff%2Fnu-exista%3Fx%3D1$/);
  await expect(page.getByRole('heading', { name: 'Intră în contul de personal' })).toBeVisible();

  await page.getByLabel('Adresa de e-mail').fill(operator.email);
  await page.getByLabel('Parola', { exact: true }).fill('parola-gresita');
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  await expect(page.getByText('Datele de autentificare sunt incorecte.').first()).toBeVisible();

  await page.getByLabel('Parola', { exact: true }).fill(operator.password);
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  await expect(page).toHaveURL(/\/staff\/nu-exista\?x=1$/);
  await expect(page.getByRole('heading', { name: 'Pagina nu există' })).toBeVisible();
  await expect(page.getByText(`Conectat ca ${operator.email} (operator)`)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Navigare personal' });
  await expect(nav.getByRole('link', { name: 'Dosare' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Previzualizare' })).toHaveCount(0);
  // The staff session has its own key; the applicant's is untouched.
  expect(await page.evaluate(() => [Boolean(localStorage.getItem('staff_session')), localStorage.getItem('user')])).toEqual([true, null]);

  await page.getByRole('button', { name: 'Ieșire' }).click();
  await expect(page).toHaveURL(/\/staff\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('staff_session'))).toBeNull();
  await page.goto('/staff');
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff$/);
});

test('the staff home names the role\'s page; an editor sees "Previzualizare" and not "Dosare"', async ({ page, request }) => {
  const editor = await addStaffViaApi(request, 'editor');
  await page.goto('/staff/login');
  await page.getByLabel('Adresa de e-mail').fill(editor.email);
  await page.getByLabel('Parola', { exact: true }).fill(editor.password);
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(page.getByRole('heading', { name: `Bun venit, ${editor.email}` })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Navigare personal' });
  await expect(nav.getByRole('link', { name: 'Previzualizare' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dosare' })).toHaveCount(0);
  // Signed in already: /staff/login leads on.
  await page.goto('/staff/login');
  await expect(page).toHaveURL(/\/staff$/);
});

test('an applicant\'s session opens no /staff page; a staff session revoked on the server sends the browser to /staff/login', async ({ page, request }) => {
  const applicant = await registerViaApi(request, { type: 2 });
  await signInBrowser(page, applicant);
  await page.goto('/staff');
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff$/);

  const operator = await addStaffViaApi(request, 'operator');
  await request.post('/api/staff/logout', { headers: { authorization: `Bearer ${operator.token}` } });
  await signInStaffBrowser(page, operator);
  await page.goto('/staff');
  await expect(page).toHaveURL(/\/staff\/login\?next=%2Fstaff$/);
  await expect(page.getByRole('heading', { name: 'Intră în contul de personal' })).toBeVisible();
});

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`axe: the staff login and the staff home have no violations (${name})`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    await page.goto('/staff/login');
    await expect(page.getByRole('button', { name: 'Intră în cont' })).toBeEnabled();
    expect(await axeViolations(page)).toEqual([]);
    const operator = await addStaffViaApi(request, 'operator');
    await signInStaffBrowser(page, operator);
    await page.goto('/staff');
    await expect(page.getByRole('heading', { name: `Bun venit, ${operator.email}` })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
}
