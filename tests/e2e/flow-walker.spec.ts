/**
 * QA per flow file: registers a fresh user for each partner, walks every step of the flow file
 * with the step's `examples` through the real browser and server, and checks route, progress and
 * server state after each step. Steps whose screens belong to later issues ("status": "pending")
 * show their notice and are passed with the e2e server's test-only place-at-step route.
 *
 *   npm run test:flow -- flows/new-pfa.json     (one file; default: every flow file)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { progress, resolveFlow, storedStepData, type Flow, type FlowStep } from '@/core/flow';
import type { Envelope, RegistrationRequest } from '@/core/api-types';
import { drivers, payAtBuiltinCheckout } from './drivers';
import { routePath } from '@/core/routes';
import { expect, registerViaApi, signInBrowser, test, type RegisteredAccount } from './fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = (process.env.FLOW_FILES || 'flows/new-pfa.json,flows/existing-pfa.json').split(',').map((f) => f.trim());
const ro = JSON.parse(fs.readFileSync(path.join(root, 'locales/ro/steps.json'), 'utf8')) as Record<string, unknown>;
const partners = (JSON.parse(fs.readFileSync(path.join(root, 'server/db/seed/partners.json'), 'utf8')) as { partners: { slug: string; is_unaffiliated: boolean }[] }).partners;

function t(key: string): string {
  let node: unknown = ro;
  for (const part of key.replace(/^steps:/, '').split('.')) node = (node as Record<string, unknown>)[part];
  return (node as string).replace('{{product}}', 'Ghișeu');
}

function componentOf(step: FlowStep): string {
  const ui = (step.uiSchema ?? {}) as Record<string, unknown>;
  if (typeof ui['ui:field'] === 'string') return ui['ui:field'];
  for (const value of Object.values(ui)) {
    const widget = (value as Record<string, unknown> | null)?.['ui:widget'];
    if (typeof widget === 'string') return widget;
  }
  // No custom widget: rjsf's own inputs (the fiscal code).
  return '$form';
}

async function serverRequest(request: APIRequestContext, flow: Flow, account: RegisteredAccount): Promise<RegistrationRequest> {
  const res = await request.get(flow.api.open, { headers: { authorization: `Bearer ${account.token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Envelope<RegistrationRequest>).payload;
}

for (const file of files) {
  const flow = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Flow;

  test.describe(`flow walker: ${file}`, () => {
    // Every partner, and the activities whose variants change steps (new PFA).
    const walks: { partner: (typeof partners)[number]; activity?: string }[] = partners.map((partner) => ({ partner }));
    if (flow.registrationType === 2) {
      const unaffiliated = partners.find((p) => p.is_unaffiliated)!;
      for (const activity of ['taxi', 'curier']) walks.push({ partner: unaffiliated, activity });
    }
    for (const [walk, { partner, activity }] of walks.entries()) {
      test(`walks the ${flow.steps.length} steps for partner ${partner.slug}${activity ? ` with activity ${activity}` : ''}`, async ({ page, request }) => {
        test.setTimeout(90_000);
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
            if (!next) break;
            const placed = await request.post('/__test/place-at-step', {
              headers: { authorization: `Bearer ${account.token}` },
              data: { step: next.id },
            });
            expect(placed.ok()).toBe(true);
            await page.goto(flow.basePath);
            continue;
          }

          // Walks take the steps' examples in turn (walk n: example n modulo their count), so every example is walked.
          const examples = step.examples ?? [];
          const exampleIndex = examples.length ? walk % examples.length : 0;
          let example = examples[exampleIndex];
          if (activity && componentOf(step) === 'activities') {
            const list = ((await (await request.get('/api/nomenclature/activity/index?is_active=1')).json()) as Envelope<{ id: number; code: string }[]>).payload;
            example = { activity_id: list.find((a) => a.code === activity)!.id, activity_details: null };
          }
          expect(example, `${step.id} has an example`).toBeTruthy();
          await drivers[componentOf(step)](page, example!, { request, registrationType: flow.registrationType, step });
          await page.getByRole('button', { name: t(step.copy?.submit ?? 'steps:common.next') }).click();
          if (step.submit.then) {
            // The pricing step opens the payment page (the built-in checkout); paying comes back through the confirmation page.
            await payAtBuiltinCheckout(page);
            if (flow.paidRoute) {
              await expect(page).toHaveURL(new RegExp(`${routePath(flow.paidRoute)}$`));
              expect((await serverRequest(request, flow, account)).paid).toBe(true);
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
      });
    }
  });
}
