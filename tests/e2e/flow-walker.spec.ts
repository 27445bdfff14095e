/**
 * QA per flow file: registers a fresh user for each walk, walks every step of the flow file with the
 * step's `examples` through the real browser and server, and checks route, progress and server state
 * after each step. Steps whose screens belong to later issues ("status": "pending") show their notice
 * and are passed with the e2e server's test-only place-at-step route.
 *
 * The walks are derived from the flow file and the seed data (tests/e2e/walk-plan.ts): by default the
 * CI set, in which every variant applies in some walk (the server's `variants` say so on the way);
 * with WALK_ALL=1 every partner × activity that matters. Each submit branch that leaves the flow (the
 * questionnaire's "lost" answer) is a short test of its own.
 *
 *   npm run test:flow -- flows/new-pfa.json [--all]     (one file, anywhere on disk; default: every flow file)
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { activities, partners, readFlow, walkFlow } from './walk';
import { planWalks } from './walk-plan';

const folder = process.env.E2E_FLOWS_DIR || 'flows';
const files = process.env.FLOW_FILES
  ? process.env.FLOW_FILES.split(',').map((f) => f.trim())
  : fs.readdirSync(path.resolve(folder)).filter((f) => f.endsWith('.json') && f !== 'flow.schema.json').sort().map((f) => `${folder}/${f}`);
const all = process.env.WALK_ALL === '1';
const partner = (slug: string) => partners.find((p) => p.slug === slug)!;

for (const file of files) {
  const flow = readFlow(file);
  const plan = planWalks(flow, partners, activities, { all });

  test.describe(`flow walker: ${file}`, () => {
    for (const [walk, { title, partner: slug, activity, variants, revisit }] of plan.walks.entries()) {
      test(title, async ({ page, request }) => {
        test.setTimeout(90_000);
        test.info().annotations.push({ type: 'variants', description: variants.join(', ') || '(none)' });
        const account = await walkFlow({ page, request, flow, partner: partner(slug), activity, walk, variants, revisit });
        expect(account.token).toBeTruthy();
      });
    }
    for (const { title, partner: slug, step, branch } of plan.branches) {
      test(title, async ({ page, request }) => {
        await walkFlow({ page, request, flow, partner: partner(slug), walk: 0, branch: { step, index: branch } });
      });
    }
  });
}
