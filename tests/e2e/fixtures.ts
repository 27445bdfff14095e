/**
 * Playwright `test` with the helpers every e2e spec needs:
 *
 *   import { test, expect } from './fixtures';
 *   test('…', async ({ page, request, registerViaApi, signInBrowser, outbox }) => {
 *     const account = await registerViaApi(request, { type: 2, partnerSlug: 'icredit' });
 *     await signInBrowser(page, account.user);
 *     await page.goto('/infiintare-pfa/1');
 *     const [mail] = await outbox(request, account.email);
 *   });
 *   // Staff (issue 18): const operator = await addStaffViaApi(request, 'operator'); await signInStaffBrowser(page, operator);
 *
 * The helpers are also exported as plain functions.
 */
import { test as base, devices, expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Envelope, OutboxMail, Partner, RegisterPayload, RegistrationRequest, SessionUser } from '@/core/api-types';
import { E2E_OPS_ACTOR, E2E_OPS_TOKEN } from './ops-token';
import { uniqueAddress } from '../unique-email';

export { expect };

/** Mails of the outbox (GET /api/dev/outbox), newest first; `to` filters by recipient. */
export async function outbox(request: APIRequestContext, to?: string): Promise<OutboxMail[]> {
  const res = await request.get('/api/dev/outbox', to ? { params: { to } } : undefined);
  if (!res.ok()) throw new Error(`GET /api/dev/outbox answered ${res.status()}: ${await res.text()}`);
  return ((await res.json()) as Envelope<OutboxMail[]>).payload;
}

/** A fresh address (tests/unique-email.ts), in lower case as the browser forms send it. */
export function uniqueEmail(prefix = 'e2e'): string {
  return uniqueAddress(prefix).toLowerCase();
}

export interface RegisterOptions {
  /** 1 = "Am PFA" (existing company), 2 = "Vreau PFA" (new company). */
  type: 1 | 2;
  /** Partner slug as in GET /api/partner/index; default the unaffiliated one (`neafiliat`). */
  partnerSlug?: string;
  email?: string;
  password?: string;
  phone?: string;
  referralCode?: string | null;
  cookies?: RegisterPayload['cookies'];
}

export interface RegisteredAccount {
  email: string;
  password: string;
  /** The session user the API answered (has `access_token`); what the browser keeps in localStorage `user`. */
  user: SessionUser;
  token: string;
}

export const DEFAULT_PASSWORD = 'parola-sigura-1';
export const DEFAULT_PHONE = '0712345678';

/** Registers a fresh account through the API (GET /api/partner/index + POST /api/register). */
export async function registerViaApi(request: APIRequestContext, options: RegisterOptions): Promise<RegisteredAccount> {
  const partnersRes = await request.get('/api/partner/index');
  if (!partnersRes.ok()) throw new Error(`GET /api/partner/index answered ${partnersRes.status()}: ${await partnersRes.text()}`);
  const partners = ((await partnersRes.json()) as Envelope<Partner[]>).payload;
  const partner = options.partnerSlug
    ? partners.find((p) => p.slug === options.partnerSlug)
    : (partners.find((p) => p.is_unaffiliated) ?? partners[0]);
  if (!partner) {
    throw new Error(`no partner ${options.partnerSlug ?? '(unaffiliated)'} in ${partners.map((p) => p.slug).join(', ')}`);
  }

  const email = options.email ?? uniqueEmail(options.type === 1 ? 'am-pfa' : 'vreau-pfa');
  const password = options.password ?? DEFAULT_PASSWORD;
  const payload: RegisterPayload = {
    email,
    password,
    phone: options.phone ?? DEFAULT_PHONE,
    referral_code: options.referralCode ?? null,
    cookies: options.cookies ?? [],
    marketing_accepted: true,
    registration_type: options.type,
    partner_id: partner.id,
  };
  const res = await request.post('/api/register', { data: payload });
  if (!res.ok()) throw new Error(`POST /api/register answered ${res.status()}: ${await res.text()}`);
  const user = ((await res.json()) as Envelope<SessionUser>).payload;
  if (!user?.access_token) throw new Error(`POST /api/register answered no access_token: ${JSON.stringify(user)}`);
  return { email, password, user, token: user.access_token };
}

/**
 * Signs the browser in as `user` without the login form: puts the user object (JSON) in
 * localStorage `user` before the page's scripts run. Call it before the first `page.goto`.
 * It is applied once per tab, so a later logout in the test is not undone by a reload.
 */
export async function signInBrowser(page: Page, user: SessionUser | RegisteredAccount): Promise<void> {
  const sessionUser = 'user' in user && 'token' in user ? user.user : (user as SessionUser);
  await page.addInitScript((value) => {
    if (!/^https?:$/.test(window.location.protocol)) return;
    try {
      if (window.sessionStorage.getItem('e2e-signed-in') === value) return;
      window.localStorage.setItem('user', value);
      window.sessionStorage.setItem('e2e-signed-in', value);
    } catch {
      // Storage unavailable (opaque origin): nothing to do.
    }
  }, JSON.stringify(sessionUser));
}

/**
 * Holds the page's scripts (`/assets/*.js`) back, as on a slow phone, until the returned `release` is
 * called: until then the page is its prerendered HTML only. A request the page no longer wants (it
 * navigated away meanwhile) is dropped quietly.
 */
export function holdScripts(page: Page): Promise<() => void> {
  return holdRequests(page, '**/assets/*.js');
}

/**
 * Holds the page's requests to `url` (a glob) back until the returned `release` is called, as a slow
 * connection would (the answer of a call, a script). A request the page no longer wants is dropped quietly.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

/** The scripts (`/assets/*.js`) an HTML names, as `src` or `href`. */
export function namedScripts(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
}

/** A Pixel-size phone (393×727, touch, mobile user agent) for `test.use`; Chromium stays the browser. */
const { defaultBrowserType: _browser, ...pixel } = devices['Pixel 5'];
void _browser;
export const PHONE = pixel;

/** The bearer header of an account, for API calls made by the test itself. */
export function auth(account: RegisteredAccount): Record<string, string> {
  return { authorization: `Bearer ${account.token}` };
}

/** The account's request as the server has it (`GET …/open`; the new-PFA flow by default). */
export async function currentRequest(request: APIRequestContext, account: RegisteredAccount, path = '/api/registration/open'): Promise<RegistrationRequest> {
  const res = await request.get(path, { headers: auth(account) });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<RegistrationRequest>).payload;
}

/**
 * A fresh new-PFA applicant whose request stands at `step` (through the e2e server's test-only
 * place-at-step route), signed in, with the browser on that step.
 */
export async function newApplicantAt(
  page: Page,
  request: APIRequestContext,
  step: number,
  options: { partnerSlug?: string; formData?: Record<string, unknown> } = {},
): Promise<RegisteredAccount> {
  const account = await applicantAtStep(request, `requesting-company-step-${step}`, options);
  await signInBrowser(page, account);
  await page.goto('/infiintare-pfa');
  await expect(page).toHaveURL(new RegExp(`/infiintare-pfa/${step}$`));
  return account;
}

/**
 * A fresh applicant whose request stands at the step `stepId` (an `existing-company-step-*` is of the
 * existing-PFA flow, any other of the new-PFA one), through the e2e server's test-only place-at-step route.
 */
export async function applicantAtStep(
  request: APIRequestContext,
  stepId: string,
  options: { partnerSlug?: string; formData?: Record<string, unknown> } = {},
): Promise<RegisteredAccount> {
  const existing = stepId.startsWith('existing-company-');
  const account = await registerViaApi(request, { type: existing ? 1 : 2, partnerSlug: options.partnerSlug });
  await currentRequest(request, account, existing ? '/api/registration/existing/open' : '/api/registration/open');
  const placed = await request.post('/__test/place-at-step', { headers: auth(account), data: { step: stepId, form_data: options.formData ?? {} } });
  expect(placed.ok()).toBe(true);
  return account;
}

export type StaffRole = 'operator' | 'editor';

export interface StaffAccount {
  email: string;
  password: string;
  role: StaffRole;
  /** The staff session (`POST /api/staff/login`): what the browser keeps in localStorage `staff_session`. */
  session: { access_token: string; expires_at: string; staff: { id: number; email: string; role: StaffRole; created_at: string } };
  token: string;
}

export const STAFF_PASSWORD = 'parola-personal-1';

/**
 * A fresh staff account of `role` (what `npm run ops -- staff:add` does: POST /api/ops/staff with
 * the e2e server's ops token), signed in through POST /api/staff/login.
 */
export async function addStaffViaApi(request: APIRequestContext, role: StaffRole, email = uniqueEmail(role)): Promise<StaffAccount> {
  const made = await request.post('/api/ops/staff', {
    headers: { authorization: `Bearer ${E2E_OPS_TOKEN}`, 'x-ops-actor': E2E_OPS_ACTOR },
    data: { email, password: STAFF_PASSWORD, role },
  });
  if (made.status() !== 201) throw new Error(`POST /api/ops/staff answered ${made.status()}: ${await made.text()}`);
  const login = await request.post('/api/staff/login', { data: { email, password: STAFF_PASSWORD } });
  if (!login.ok()) throw new Error(`POST /api/staff/login answered ${login.status()}: ${await login.text()}`);
  const session = ((await login.json()) as Envelope<StaffAccount['session']>).payload;
  return { email, password: STAFF_PASSWORD, role, session, token: session.access_token };
}

/**
 * Signs the browser in as a staff member without the form: puts the session in localStorage
 * `staff_session` before the page's scripts run (once per tab, like signInBrowser). Call it before
 * the first `page.goto`.
 */
export async function signInStaffBrowser(page: Page, account: StaffAccount): Promise<void> {
  await page.addInitScript((value) => {
    if (!/^https?:$/.test(window.location.protocol)) return;
    try {
      if (window.sessionStorage.getItem('e2e-staff-signed-in') === value) return;
      window.localStorage.setItem('staff_session', value);
      window.sessionStorage.setItem('e2e-staff-signed-in', value);
    } catch {
      // Storage unavailable (opaque origin): nothing to do.
    }
  }, JSON.stringify(account.session));
}

/** The staff bearer header, for API calls made by the test itself. */
export function staffAuth(account: StaffAccount): Record<string, string> {
  return { authorization: `Bearer ${account.token}` };
}

export interface Helpers {
  outbox: typeof outbox;
  uniqueEmail: typeof uniqueEmail;
  registerViaApi: typeof registerViaApi;
  signInBrowser: typeof signInBrowser;
  addStaffViaApi: typeof addStaffViaApi;
  signInStaffBrowser: typeof signInStaffBrowser;
}

/* eslint-disable no-empty-pattern -- Playwright fixtures must destructure their first argument */
export const test = base.extend<Helpers>({
  outbox: async ({}, use) => use(outbox),
  uniqueEmail: async ({}, use) => use(uniqueEmail),
  registerViaApi: async ({}, use) => use(registerViaApi),
  signInBrowser: async ({}, use) => use(signInBrowser),
  addStaffViaApi: async ({}, use) => use(addStaffViaApi),
  signInStaffBrowser: async ({}, use) => use(signInStaffBrowser),
});
/* eslint-enable no-empty-pattern */
