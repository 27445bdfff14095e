/**
 * The pages `npm run bench:web` loads (scripts/bench-web.ts), and the applicants behind them, made
 * through the API of the bench's server: one per step of both flow files, the guest pages, the status
 * and the checkout page; and, for `--journey`, the two ways into the wizard.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { typeInto, type JourneyStart } from '../bench-journey.ts';
import { ROUTE_PAGES } from '../guest-pages.ts';
import { uniqueAddress } from '../../tests/unique-email.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface FlowFile {
  registrationType: number;
  api: { open: string };
  steps: { id: string; path: string }[];
}
export interface Target {
  label: string;
  path: string;
  /** The session user to keep in localStorage `user` (null: a guest). */
  user: unknown;
  /** More localStorage entries to set before the load (the registration type chosen on /register). */
  storage?: Record<string, string>;
}

async function api<T>(origin: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${origin}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { payload: T }).payload;
}

const PASSWORD = 'parola-sigura-1';

/** A fresh applicant of `registrationType` (unaffiliated partner), its request opened. */
async function applicant(origin: string, flow: FlowFile): Promise<{ user: { access_token: string }; token: string; email: string }> {
  const partners = await api<{ id: number; is_unaffiliated: boolean }[]>(origin, 'GET', '/api/partner/index');
  const partner = partners.find((p) => p.is_unaffiliated) ?? partners[0];
  const email = uniqueAddress('bench');
  const user = await api<{ access_token: string }>(origin, 'POST', '/api/register', {
    email,
    password: PASSWORD,
    phone: '0712345678',
    referral_code: null,
    cookies: [],
    marketing_accepted: true,
    registration_type: flow.registrationType,
    partner_id: partner.id,
  });
  await api(origin, 'GET', flow.api.open, undefined, user.access_token);
  return { user, token: user.access_token, email };
}

const readFlow = (file: string) => JSON.parse(fs.readFileSync(path.join(root, 'flows', file), 'utf8')) as FlowFile;

/**
 * The two ways into the wizard, for `--journey`: signing in as an applicant whose request stands at the
 * new-PFA flow's first step, and creating a new-PFA account.
 */
export async function journeys(origin: string, runs: number): Promise<JourneyStart[]> {
  const flow = readFlow('new-pfa.json');
  const first = new RegExp(`^${flow.steps[0].path}$`);
  const accounts: string[] = [];
  for (let i = 0; i < runs; i++) accounts.push((await applicant(origin, flow)).email);
  let next = 0;
  return [
    {
      label: '/login → the step it leads to',
      path: '/login',
      fill: async (page) => {
        await typeInto(page, 'email', accounts[next++]);
        await typeInto(page, 'password', PASSWORD);
      },
      submit: 'Intră în cont',
      arrives: first,
    },
    {
      label: '/register/account → the first step',
      path: '/register/account',
      storage: { registration: JSON.stringify({ type: flow.registrationType }) },
      fill: async (page) => {
        await typeInto(page, 'email', uniqueAddress('bench'));
        await typeInto(page, 'phone', '0712345678');
        await typeInto(page, 'password', PASSWORD);
        await page.click('label:has(input[name="marketing_accepted"])');
      },
      submit: 'Vreau cont Ghișeu',
      arrives: first,
    },
  ];
}

/** Every page the bench measures, each with the visitor it is measured as. */
export async function targets(origin: string): Promise<Target[]> {
  const flows = [readFlow('new-pfa.json'), readFlow('existing-pfa.json')];
  // /register/account as a visitor who chose a type on /register sees it (without one it sends them back there).
  const chosen = { registration: JSON.stringify({ type: flows[0].registrationType }) };
  const list: Target[] = ROUTE_PAGES.map(({ route }) => ({ label: route, path: route, user: null, ...(route === '/register/account' ? { storage: chosen } : {}) }));
  for (const flow of flows) {
    for (const step of flow.steps) {
      const { user, token } = await applicant(origin, flow);
      await api(origin, 'POST', '/__test/place-at-step', { step: step.id }, token);
      list.push({ label: `${step.path} (${step.id})`, path: step.path, user });
    }
  }
  const newFlow = flows[0];
  const pricing = newFlow.steps[newFlow.steps.length - 1];
  {
    const { user, token } = await applicant(origin, newFlow);
    await api(origin, 'POST', '/__test/place-at-step', { step: pricing.id }, token);
    list.push({ label: '/infiintare-pfa/status', path: '/infiintare-pfa/status', user });
  }
  {
    const { user, token } = await applicant(origin, newFlow);
    await api(origin, 'POST', '/__test/place-at-step', { step: pricing.id }, token);
    const prices = ['price_ghiseu_standard_monthly'];
    await api(origin, 'POST', '/api/registration/collect/partner-price', { selected_stripe_id: prices[0], current_step_identifier: pricing.id }, token);
    const { redirect_url } = await api<{ redirect_url: string }>(origin, 'POST', '/api/stripe/redirect', { selected_stripe_id: prices[0] }, token);
    const checkout = new URL(redirect_url, origin).pathname;
    list.push({ label: '/checkout/:paymentId', path: checkout, user });
  }
  return list;
}
