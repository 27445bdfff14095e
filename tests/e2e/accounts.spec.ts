/**
 * Accounts and every screen outside the wizards (spec 000 §2–§5), in the real browser against the
 * real server: registration of each type (and through a partner link), logout and login with the
 * redirect order of §4.1, login errors, forgot → mail → reset → login, the 404 page, the guards,
 * and the /auth sign-in for other applications.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { Envelope, RegistrationRequest } from '@/core/api-types';
import { DEFAULT_PASSWORD, expect, holdScripts, outbox, registerViaApi, signInBrowser, test, uniqueEmail, type RegisteredAccount } from './fixtures';
import { localeText } from '../copy';

const CALLBACK_ORIGIN = 'http://127.0.0.1:3999'; // AUTH_CALLBACK_ORIGINS of tests/e2e/serve.ts

async function registerInBrowser(page: Page, choice: 'Am PFA' | 'Vreau PFA', start = '/', email = uniqueEmail('ui')): Promise<string> {
  await page.goto(start);
  await expect(page.getByRole('heading', { level: 1, name: 'Creează-ți contul Ghișeu' })).toBeVisible();
  await page.locator('label', { has: page.getByRole('radio', { name: new RegExp(choice) }) }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Datele contului tău' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Vreau cont Ghișeu' });
  await page.getByLabel('Adresa de e-mail').fill(email);
  await page.getByLabel('Telefon').fill('0712345678');
  await page.getByLabel('Parola', { exact: true }).fill(DEFAULT_PASSWORD);
  await expect(page.getByText('Minim 6 caractere')).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.locator('label', { has: page.getByRole('checkbox') }).click();
  await expect(submit).toBeEnabled();
  await submit.click();
  return email;
}

async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Adresa de e-mail').fill(email);
  await page.getByLabel('Parola', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Intră în cont' }).click();
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Ieșire din cont' }).click();
  await expect(page).toHaveURL(/\/register$/);
  expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
}

async function openRequest(request: APIRequestContext, account: { token: string }, path = '/api/registration/open'): Promise<RegistrationRequest> {
  const res = await request.get(path, { headers: { authorization: `Bearer ${account.token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<RegistrationRequest>).payload;
}

function storedToken(page: Page): Promise<string> {
  return page.evaluate(() => (JSON.parse(window.localStorage.getItem('user') ?? '{}') as { access_token?: string }).access_token ?? '');
}

test.describe('registration', () => {
  test('"Vreau PFA": a guest at / registers and lands in the new-PFA wrapper; a verification mail is sent', async ({ page, request }) => {
    const email = await registerInBrowser(page, 'Vreau PFA');
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
    await expect(page.getByRole('banner').getByText('Înființare PFA')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ieșire din cont' })).toBeVisible();
    await expect(page.getByTestId('wizard-progress')).toHaveText(localeText('steps:common.progress', { position: 1, total: 10 }));
    const [mail] = await outbox(request, email);
    expect(mail.subject).toBe('Confirmă adresa de e-mail pentru Ghișeu');

    // The verification link confirms the address once; a second visit says it already was.
    const verify = mail.links.find((l) => l.includes('/email/verify'))!;
    const context = await page.context().browser()!.newContext();
    const other = await context.newPage();
    await other.goto(verify);
    await expect(other).toHaveURL(/\/email\/verify-success\/$/);
    await expect(other.getByRole('heading', { name: 'Succes' })).toBeVisible();
    await other.goto(verify);
    await expect(other).toHaveURL(/\/email\/already-verified\/$/);
    await expect(other.getByRole('heading', { name: 'Adresa de e-mail este deja confirmată' })).toBeVisible();
    await context.close();
  });

  test('"Am PFA" lands in the existing-PFA wrapper', async ({ page }) => {
    await registerInBrowser(page, 'Am PFA', '/register');
    await expect(page).toHaveURL(/\/inregistrare\/1$/);
    await expect(page.getByRole('banner').getByText('Registrare PFA')).toBeVisible();
    await expect(page.getByTestId('wizard-progress')).toHaveText(localeText('steps:common.progress', { position: 1, total: 7 }));
  });

  test('/register/icredit preselects and locks the partner, which the request then carries', async ({ page, request }) => {
    await page.goto('/register/icredit');
    await page.locator('label', { has: page.getByRole('radio', { name: /Vreau PFA/ }) }).click();
    await expect(page).toHaveURL(/\/register\/account\/icredit$/);
    await expect(page.getByText('Tipul de abonament este stabilit de partenerul prin care ai ajuns aici.')).toBeVisible();
    const radios = page.getByRole('radio');
    for (const radio of await radios.all()) await expect(radio).toBeDisabled();
    await expect(page.getByRole('radio', { checked: true })).toHaveCount(1);

    await registerInBrowser(page, 'Vreau PFA', '/register/icredit');
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
    const state = await openRequest(request, { token: await storedToken(page) });
    expect(state.partner.is_unaffiliated).toBe(false);
    expect(state.partner.name).toMatch(/icredit/i);
  });
});

test.describe('sign in and out', () => {
  test('logout clears the browser; login goes by type, then stop_flow, then dashboard first (§4.1)', async ({ page, request }) => {
    const account = await registerViaApi(request, { type: 2 });
    await signInBrowser(page, account);
    await page.goto('/');
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
    await logout(page);
    // The revoked token no longer opens anything.
    expect((await request.get('/api/registration/open', { headers: { authorization: `Bearer ${account.token}` } })).status()).toBe(401);

    // By registration type.
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Bine ai revenit!' })).toBeVisible();
    // The banner slider: three slides about the product.
    await expect(page.getByText('Îți înființăm PFA-ul, cu sediul inclus')).toBeVisible();
    await expect(page.locator('[aria-roledescription="diapozitiv"]')).toHaveCount(3);
    const password = page.getByLabel('Parola', { exact: true });
    await password.fill(account.password);
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Arată parola' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Ascunde parola' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByLabel('Adresa de e-mail').fill(account.email);
    await page.getByRole('button', { name: 'Intră în cont' }).click();
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);

    // stop_flow: a questionnaire answer the service cannot handle yet leads to the info page…
    await page.locator('label', { has: page.getByRole('checkbox', { name: 'Voi vinde produse', exact: true }) }).click();
    await page.getByRole('button', { name: localeText('steps:questionnaire.submit') }).click();
    await expect(page).toHaveURL(/\/inregistrare\/chestionar\/info$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Încă nu putem ține contabilitatea PFA-ului tău' })).toBeVisible();
    // …and the next login goes there too.
    await page.evaluate(() => window.localStorage.clear());
    await login(page, account.email, account.password);
    await expect(page).toHaveURL(/\/inregistrare\/chestionar\/info$/);
    // "Înapoi" takes the applicant back into the flow (mark-as-unlost); the next login goes by type again.
    await page.getByRole('button', { name: 'Înapoi' }).or(page.getByRole('link', { name: 'Înapoi' })).click();
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
    await page.evaluate(() => window.localStorage.clear());
    await login(page, account.email, account.password);
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);

    // dashboard_redirect wins over everything: the browser leaves for {DASHBOARD_URL}/sso/{token}.
    const token = await storedToken(page);
    expect((await request.post('/__test/user-flags', { headers: { authorization: `Bearer ${token}` }, data: { dashboard_redirect: true } })).ok()).toBe(true);
    await page.evaluate(() => window.localStorage.clear());
    await login(page, account.email, account.password);
    await expect(page).toHaveURL(/\/sso\/[^/]+$/);
    await expect(page.getByTestId('sso-user')).toContainText(account.email);
  });

  test("a step page's \"Ieșire din cont\" works before the app has loaded (the prerendered shell): the session ends", async ({ page, request }) => {
    const account = await registerViaApi(request, { type: 2 });
    expect((await openRequest(request, account)).step).toBe('requesting-company-step-0');
    await signInBrowser(page, account);
    // The app's scripts held back, as on a slow phone: the step's prerendered shell is all there is.
    const release = await holdScripts(page);
    await page.goto('/infiintare-pfa/0', { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Ieșire din cont' }).click();
    await expect(page).toHaveURL(/\/logout$/);
    release();
    await expect(page).toHaveURL(/\/register$/);
    expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
    expect((await request.get('/api/registration/open', { headers: { authorization: `Bearer ${account.token}` } })).status()).toBe(401);
  });

  test('a wrong password shows the error under the field; typing clears it and re-enables the button', async ({ page, request }) => {
    const account = await registerViaApi(request, { type: 1 });
    await login(page, account.email, 'parola-gresita');
    const error = page.getByText('Datele de autentificare sunt incorecte.').first();
    await expect(error).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    const submit = page.getByRole('button', { name: 'Intră în cont' });
    await expect(submit).toBeDisabled();
    await page.getByLabel('Parola', { exact: true }).fill(account.password);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page).toHaveURL(/\/inregistrare\/1$/);
  });

  test('forgot password: "Trimite" mails a link; "Resetează" sets the new password; login works with it', async ({ page, request }) => {
    const account = await registerViaApi(request, { type: 2 });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Ai uitat parola?' }).click();
    await expect(page).toHaveURL(/\/password\/forgot$/);
    await page.getByLabel('Adresa de e-mail').fill(account.email);
    await page.getByRole('button', { name: 'Trimite' }).click();
    await expect(page.getByText('Dacă adresa are un cont, ți-am trimis pe e-mail un link de resetare a parolei.')).toBeVisible();

    const [mail] = await outbox(request, account.email);
    expect(mail.subject).toBe('Resetează parola contului Ghișeu');
    const link = mail.links.find((l) => l.includes('/password/reset'))!;
    await page.goto(link);
    await expect(page).toHaveURL(/\/password\/reset\?url=/);
    await page.getByLabel('Parola nouă', { exact: true }).fill('parola-noua-2');
    await page.getByLabel('Confirmă parola nouă').fill('parola-noua-2');
    await page.getByRole('button', { name: 'Resetează' }).click();
    await expect(page.getByText('Parola a fost schimbată. Te poți autentifica cu noua parolă.')).toBeVisible();

    await login(page, account.email, account.password);
    await expect(page.getByText('Datele de autentificare sunt incorecte.').first()).toBeVisible();
    await login(page, account.email, 'parola-noua-2');
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
  });

  test('a reset link whose url points elsewhere is refused in the browser', async ({ page }) => {
    await page.goto(`/password/reset?url=${encodeURIComponent('https://exemplu.ro/api/password/reset/abc')}`);
    await expect(page.getByText('Linkul de resetare a parolei nu este valid. Cere un link nou.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resetează' })).toHaveCount(0);
  });
});

test.describe('404 and guards', () => {
  test('an unknown path shows the 404 page with a link to the first page', async ({ page }) => {
    await page.goto('/nu-exista/deloc');
    await expect(page.getByText('Această pagină a fost mutată sau nu există!')).toBeVisible();
    await page.getByRole('link', { name: 'Întoarce-te la prima pagină' }).click();
    await expect(page).toHaveURL(/\/(login|register)$/);
  });

  test('a guest is sent to login from signed-in pages', async ({ page }) => {
    for (const path of ['/infiintare-pfa/3', '/inregistrare', '/inregistrare/chestionar/info', '/infiintare-pfa/status']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test('a signed-in user is sent away from guest pages, to their own flow, and to the step the server is at', async ({ page, request }) => {
    const account: RegisteredAccount = await registerViaApi(request, { type: 2 });
    await signInBrowser(page, account);
    for (const path of ['/login', '/password/forgot', '/inregistrare/3']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
    }
    // Step guard: a later step than the server's current one moves to the current step.
    await page.goto('/infiintare-pfa/4');
    await expect(page).toHaveURL(/\/infiintare-pfa\/0$/);
    await expect(page.getByTestId('wizard-progress')).toHaveText(localeText('steps:common.progress', { position: 1, total: 10 }));
  });
});

test.describe('/auth: sign-in for other applications', () => {
  test('an allowed callback receives id_token and access_token', async ({ page, request }) => {
    const account = await registerViaApi(request, { type: 2 });
    await page.route(`${CALLBACK_ORIGIN}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Aplicația parteneră</h1>' }));
    await page.goto(`/auth?source=contabil&callbackUrl=${encodeURIComponent(`${CALLBACK_ORIGIN}/intoarcere?x=1`)}`);
    await page.getByLabel('Adresa de e-mail').fill(account.email);
    await page.getByLabel('Parola', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Intră în cont' }).click();
    await expect(page).toHaveURL(new RegExp(`^${CALLBACK_ORIGIN}/intoarcere\\?`));
    const url = new URL(page.url());
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('id_token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const accessToken = url.searchParams.get('access_token')!;
    expect((await request.get('/api/registration/open', { headers: { authorization: `Bearer ${accessToken}` } })).ok()).toBe(true);
  });

  test('a callback outside the allowlist is refused with a message, never followed', async ({ page, request }) => {
    const account = await registerViaApi(request, { type: 2 });
    let left = false;
    await page.route('https://rau.exemplu.ro/**', (route) => {
      left = true;
      return route.abort();
    });
    await page.goto(`/auth?source=x&callbackUrl=${encodeURIComponent('https://rau.exemplu.ro/furt')}`);
    await page.getByLabel('Adresa de e-mail').fill(account.email);
    await page.getByLabel('Parola', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Intră în cont' }).click();
    await expect(page.getByText('Adresa de întoarcere nu este permisă.').first()).toBeVisible();
    await expect(page).toHaveURL(/\/auth\?/);
    expect(left).toBe(false);
  });
});
