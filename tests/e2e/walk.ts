import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { progress, resolveFlow, storedStepData, type Flow, type FlowStep } from '@/core/flow';
import type { Envelope, RegistrationRequest } from '@/core/api-types';
import { routePath } from '@/core/routes';
import { drivers, payAtBuiltinCheckout, type Screen } from './drivers';
import { expect, registerViaApi, signInBrowser, type RegisteredAccount } from './fixtures';

/**
 * One walk through a flow file as an applicant (the flow walker's loop, shared with the axe sweep):
 * registers a fresh user of `partner`, then on every step fills the step's example with its driver
 * (widgets/registry.ts names), presses the step's button and checks route, progress and server state.
 * `screen(label)` is called on every screen the applicant sees on the way (each step as it opens,
 * the states a driver passes through, the payment page, the page after payment).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const ro = JSON.parse(fs.readFileSync(path.join(root, 'locales/ro/steps.json'), 'utf8')) as Record<string, unknown>;

export interface PartnerSeed {
  slug: string;
  is_unaffiliated: boolean;
}

export const partners = (JSON.parse(fs.readFileSync(path.join(root, 'server/db/seed/partners.json'), 'utf8')) as { partners: PartnerSeed[] }).partners;

export function readFlow(file: string): Flow {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Flow;
}

/** A `steps:` key's Romanian text (with the product name). */
export function t(key: string): string {
  let node: unknown = ro;
  for (const part of key.replace(/^steps:/, '').split('.')) node = (node as Record<string, unknown>)[part];
  return (node as string).replace('{{product}}', 'Ghișeu');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function componentOf(step: FlowStep): string {
  const ui = (step.uiSchema ?? {}) as Record<string, unknown>;
  if (typeof ui['ui:field'] === 'string') return ui['ui:field'];
  for (const value of Object.values(ui)) {
    const widget = (value as Record<string, unknown> | null)?.['ui:widget'];
    if (typeof widget === 'string') return widget;
  }
  // No custom widget: rjsf's own inputs (the fiscal code).
  return '$form';
}

export async function serverRequest(request: APIRequestContext, flow: Flow, account: RegisteredAccount): Promise<RegistrationRequest> {
  const res = await request.get(flow.api.open, { headers: { authorization: `Bearer ${account.token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<RegistrationRequest>).payload;
}

export interface WalkOptions {
  page: Page;
  request: APIRequestContext;
  flow: Flow;
  partner: PartnerSeed;
  /** An activity code chosen at the activities step instead of the example's (new PFA). */
  activity?: string;
  /** Which example of each step (walk n: example n modulo their count), so every example is walked. */
  walk: number;
  screen?: Screen;
}

export async function walkFlow({ page, request, flow, partner, activity, walk, screen }: WalkOptions): Promise<RegisteredAccount> {
  const account = await registerViaApi(request, { type: flow.registrationType, partnerSlug: partner.slug });
  await signInBrowser(page, account);
  await page.goto(flow.basePath);

  for (let guard = 0; guard < 20; guard++) {
    const state = await serverRequest(request, flow, account);
    const resolved = resolveFlow(flow, {
      partner: partner.slug,
      unaffiliated: partner.is_unaffiliated,
      paid: state.paid,
      activity: typeof state.form_data.activity === 'string' ? state.form_data.activity : null,
      formData: state.form_data,
    });
    const index = resolved.steps.findIndex((s) => s.id === state.step);
    const step = resolved.steps[index];
    await expect(page).toHaveURL(new RegExp(`${step.path}$`));
    // The counter counts steps behind the applicant (`done`, the paid pricing step) too.
    const shown = progress(resolved, step.id);
    await expect(page.getByTestId('wizard-progress')).toHaveText(`Pasul ${shown.position} din ${shown.total}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const next = resolved.steps[index + 1];

    if (step.status === 'pending') {
      await expect(page.getByText('Pas în pregătire')).toBeVisible();
      await screen?.(`${step.id} (pending)`);
      if (!next) break;
      const placed = await request.post('/__test/place-at-step', {
        headers: { authorization: `Bearer ${account.token}` },
        data: { step: next.id },
      });
      expect(placed.ok()).toBe(true);
      await page.goto(flow.basePath);
      continue;
    }

    const examples = step.examples ?? [];
    const exampleIndex = examples.length ? walk % examples.length : 0;
    let example = examples[exampleIndex];
    if (activity && componentOf(step) === 'activities') {
      const list = ((await (await request.get('/api/nomenclature/activity/index?is_active=1')).json()) as Envelope<{ id: number; code: string }[]>).payload;
      example = { activity_id: list.find((a) => a.code === activity)!.id, activity_details: null };
    }
    expect(example, `${step.id} has an example`).toBeTruthy();
    await drivers[componentOf(step)](page, example!, { request, registrationType: flow.registrationType, step, screen: screen && ((label) => screen(`${step.id}: ${label}`)) });
    // Under 1280 px a step may name its button shorter (`copy.submitShort`, the pricing step's "Vreau Ghișeu").
    const names = [step.copy?.submit ?? 'steps:common.next', step.copy?.submitShort].filter((k): k is string => !!k).map(t);
    await page.getByRole('button', { name: new RegExp(`^(${names.map(escape).join('|')})$`) }).click();
    if (step.submit.then) {
      // The pricing step opens the payment page (the built-in checkout); paying comes back through the confirmation page.
      await expect(page).toHaveURL(/\/checkout\/pay_[\w-]+$/);
      await expect(page.getByTestId('checkout-amount')).toContainText('lei');
      await screen?.('checkout');
      await payAtBuiltinCheckout(page);
      if (flow.paidRoute) {
        await expect(page).toHaveURL(new RegExp(`${routePath(flow.paidRoute)}$`));
        expect((await serverRequest(request, flow, account)).paid).toBe(true);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await screen?.(flow.paidRoute);
        break;
      }
    }
    if (!next) break;
    await expect(page).toHaveURL(new RegExp(`${next.path}$`));
    const after = await serverRequest(request, flow, account);
    expect(after.step).toBe(next.id);
    // What the step keeps (`submit.store`) is what was entered; files (a signature) are checked by their own specs.
    // (Later examples may be written the way users write them, "RO46720190", which the server keeps normalised.)
    const kept = new Set(Object.values(step.submit.store ?? {}));
    if (exampleIndex === 0 || componentOf(step) !== '$form') {
      expect(storedStepData(step, after.form_data)).toMatchObject(Object.fromEntries(Object.entries(example!).filter(([k, v]) => v !== null && kept.has(k))));
    }
  }
  const final = await serverRequest(request, flow, account);
  expect(final.paid).toBe(true);
  expect(final.step).toBe(resolveFlow(flow, { partner: partner.slug, unaffiliated: partner.is_unaffiliated, paid: true, activity: null, formData: {} }).steps.at(-1)!.id);
  return account;
}
