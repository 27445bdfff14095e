import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { evaluate, progress, requestContext, resolveFlow, storedStepData, type Flow, type FlowStep, type ResolvedFlow } from '@/core/flow';
import type { Envelope, RegistrationRequest } from '@/core/api-types';
import { routePath } from '@/core/routes';
import { choices, drivers, payAtBuiltinCheckout, submitName, type Screen } from './drivers';
import { expect, registerViaApi, signInBrowser, type RegisteredAccount } from './fixtures';
import { activitiesStep, branchExample, componentOf, priceExample, type SeedActivity, type SeedPartner } from './walk-plan';
import { STATUS, STATUS_POLL_MS } from '../../widgets/id-capture/identity-rules';
import { localeText } from '../copy';

/**
 * One walk through a flow file as an applicant (the flow walker's loop, shared with the axe sweep):
 * registers a fresh user of `partner`, then on every step fills the step's example with its driver
 * (widgets/registry.ts names), presses the step's button and checks route, progress and server state.
 * `screen(label)` is called on every screen the applicant sees on the way (each step as it opens,
 * the states a driver passes through, the payment page, the page after payment).
 * Which walks to make (partner, activity, variants to meet, branches): tests/e2e/walk-plan.ts.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

export type PartnerSeed = SeedPartner;

export const partners = (JSON.parse(fs.readFileSync(path.join(root, 'server/db/seed/partners.json'), 'utf8')) as { partners: PartnerSeed[] }).partners;
export const activities = (JSON.parse(fs.readFileSync(path.join(root, 'server/db/seed/activities.json'), 'utf8')) as { activities: SeedActivity[] }).activities;

/** A flow file, by a path relative to the repository (`flows/new-pfa.json`) or anywhere on disk. */
export function readFlow(file: string): Flow {
  return JSON.parse(fs.readFileSync(path.resolve(root, file), 'utf8')) as Flow;
}

/** A `steps:` key's Romanian text (the product name and `vars` filled in), from the locale file (tests/copy.ts `localeText`). */
export function t(key: string, vars: Record<string, unknown> = {}): string {
  return localeText(key, vars);
}

export { componentOf };

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
  activity?: string | null;
  /** Which example of each step (walk n: example n modulo their count), so every example is walked. */
  walk: number;
  /** Variants the walk must meet: each is among the server's `variants` of the request at some point. */
  variants?: string[];
  /** Variants to go back for once they apply, as they change steps behind the applicant (`dossier-sent`). */
  revisit?: string[];
  /** Takes this submit branch (its index) of this step instead of going on; the walk ends where it leads. */
  branch?: { step: string; index: number };
  screen?: Screen;
}

/** The example a step is filled with on this walk: the walk's example, the chosen activity, the partner's own price. */
async function exampleFor(request: APIRequestContext, step: FlowStep, state: RegistrationRequest, walk: number, activity: string | null | undefined) {
  const examples = step.examples ?? [];
  const index = examples.length ? walk % examples.length : 0;
  let example = examples[index];
  if (activity && componentOf(step) === 'activities') {
    const list = ((await (await request.get('/api/nomenclature/activity/index?is_active=1')).json()) as Envelope<{ id: number; code: string }[]>).payload;
    const chosen = list.find((a) => a.code === activity);
    expect(chosen, `activity ${activity} is in the nomenclature`).toBeTruthy();
    // The activity "not in the list" (`unknownActivity`) asks what it is.
    const unknown = ((step.uiSchema?.['ui:options'] ?? {}) as { unknownActivity?: string }).unknownActivity;
    example = { activity_id: chosen!.id, activity_details: activity === unknown ? 'Reparații de biciclete la domiciliu' : null };
  }
  return { example: priceExample(step, example, state.partner.prices), index };
}

/**
 * Back from the current step to `target` (a step behind, which a variant that applies now changes), its
 * button pressed as the variant names it, and where that leads checked: a submit branch's route, else
 * the next step. The walk then goes on from the server's step.
 */
async function revisitStep(page: Page, flow: Flow, resolved: ResolvedFlow, state: RegistrationRequest, from: number, target: number, screen?: Screen) {
  for (let at = from - 1; at >= target; at--) {
    await page.getByRole('button', { name: t('steps:common.previous'), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${resolved.steps[at].path}$`));
  }
  const step = resolved.steps[target];
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screen?.(`${step.id} (revisited: ${resolved.variants.join(', ')})`);
  await page.getByRole('button', { name: submitName(step) }).click();
  const context = requestContext(state);
  const branch = step.submit.branches?.find((b) => evaluate(b.when, context));
  if (branch?.navigate) {
    await expect(page).toHaveURL(new RegExp(`${routePath(branch.navigate)}$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await screen?.(branch.navigate);
  } else {
    await expect(page).toHaveURL(new RegExp(`${resolved.steps[target + 1].path}$`));
  }
  await page.goto(flow.basePath);
}

/**
 * The identity step asks for its decision every STATUS_POLL_MS (a 5 s interval): once the server has
 * decided (the simulator, 500 ms after the submit on the e2e server), the walker moves the page's clock
 * on to that ask instead of waiting for it (~4 s of every walk). Without the jump the ask comes anyway.
 */
async function hurryIdentityDecision(page: Page, request: APIRequestContext, account: RegisteredAccount): Promise<void> {
  await page.waitForResponse((r) => r.url().includes('/api/veriff/submit-session') && r.ok(), { timeout: 60_000 });
  const headers = { authorization: `Bearer ${account.token}` };
  const ask = async <T>(url: string) => ((await (await request.get(url, { headers })).json()) as Envelope<T>).payload;
  const session = await ask<{ session_id: string; custom_id: string }>('/api/veriff/get-last-session');
  const query = new URLSearchParams({ session_id: session.session_id, custom_id: session.custom_id });
  await expect.poll(async () => (await ask<{ status: number }>(`/api/veriff/verify-veriff-session?${query}`)).status, { intervals: [250] }).not.toBe(STATUS.submitted);
  await page.clock.fastForward(STATUS_POLL_MS);
}

export async function walkFlow({ page, request, flow, partner, activity, walk, variants = [], revisit = [], branch, screen }: WalkOptions): Promise<RegisteredAccount> {
  const account = await registerViaApi(request, { type: flow.registrationType, partnerSlug: partner.slug });
  await signInBrowser(page, account);
  // The page's clock runs as usual, and may be moved on (hurryIdentityDecision).
  await page.clock.install();
  await page.goto(flow.basePath);
  // The variants the server applied to the request on the way, and those gone back for.
  const met = new Set<string>();
  const revisited = new Set<string>();

  for (let guard = 0; guard < 30; guard++) {
    const state = await serverRequest(request, flow, account);
    state.variants.forEach((v) => met.add(v));
    const resolved = resolveFlow(flow, requestContext(state));
    const index = resolved.steps.findIndex((s) => s.id === state.step);
    const step = resolved.steps[index];
    await expect(page).toHaveURL(new RegExp(`${step.path}$`));
    // The counter counts steps behind the applicant (`done`, the paid pricing step) too.
    const shown = progress(resolved, step.id);
    await expect(page.getByTestId('wizard-progress')).toHaveText(t('steps:common.progress', { position: shown.position, total: shown.total }));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const next = resolved.steps[index + 1];

    // A variant to revisit that applies now and changes a step behind: back to the latest such step.
    const due = revisit.filter((id) => !revisited.has(id) && resolved.variants.includes(id));
    due.forEach((id) => revisited.add(id));
    const changed = new Set(due.flatMap((id) => Object.keys(flow.variants!.find((v) => v.id === id)!.steps)));
    const target = resolved.steps.slice(0, index).findLastIndex((s) => changed.has(s.id));
    if (target >= 0) {
      await revisitStep(page, flow, resolved, state, index, target, screen);
      continue;
    }

    if (step.status === 'pending') {
      await expect(page.getByText(t('steps:common.pendingTitle'))).toBeVisible();
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

    const picked = await exampleFor(request, step, state, walk, activity);
    let example = picked.example;
    const taken = branch?.step === step.id ? step.submit.branches?.[branch.index] : undefined;
    if (branch?.step === step.id) {
      expect(taken, `${step.id} has submit branch ${branch.index}`).toBeTruthy();
      const options = await choices[componentOf(step)]?.(request, { registrationType: flow.registrationType, step });
      example = branchExample(example ?? {}, taken!, options ?? []) ?? undefined;
      expect(example, `an answer of ${componentOf(step)} takes ${step.id}'s branch ${branch.index}`).toBeTruthy();
    }
    expect(example, `${step.id} has an example`).toBeTruthy();
    await Promise.all([
      drivers[componentOf(step)](page, example!, { request, registrationType: flow.registrationType, step, screen: screen && ((label) => screen(`${step.id}: ${label}`)) }),
      componentOf(step) === 'identity' ? hurryIdentityDecision(page, request, account) : null,
    ]);
    // Under 1280 px a step may name its button shorter (`copy.submitShort`, the pricing step's "Vreau Ghișeu").
    await page.getByRole('button', { name: submitName(step) }).click();
    if (taken) {
      await expect(page).toHaveURL(new RegExp(`${routePath(taken.navigate!)}$`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await screen?.(taken.navigate!);
      return account;
    }
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
    if (picked.index === 0 || componentOf(step) !== '$form') {
      expect(storedStepData(step, after.form_data)).toMatchObject(Object.fromEntries(Object.entries(example!).filter(([k, v]) => v !== null && kept.has(k))));
    }
  }
  const final = await serverRequest(request, flow, account);
  final.variants.forEach((v) => met.add(v));
  expect(final.paid).toBe(true);
  expect(final.step).toBe(resolveFlow(flow, { partner: partner.slug, unaffiliated: partner.is_unaffiliated, paid: true, activity: null, formData: {} }).steps.at(-1)!.id);
  expect([...met], 'the variants of the walk applied on the way').toEqual(expect.arrayContaining(variants));
  expect([...revisited], 'the variants gone back for').toEqual(expect.arrayContaining(revisit));
  if (activity && activitiesStep(flow)) expect(final.form_data.activity).toBe(activity);
  return account;
}
