/**
 * QA per flow file: registers a fresh user for each partner, walks every step of the flow file
 * with the step's `examples` through the real browser and server, and checks route, progress and
 * server state after each step. Steps whose screens belong to later issues ("status": "pending")
 * show their notice and are passed with the e2e server's test-only place-at-step route.
 *
 *   npm run test:flow -- flows/new-pfa.json     (one file; default: every flow file)
 */
import { expect, test } from './fixtures';
import { partners, readFlow, walkFlow } from './walk';

const files = (process.env.FLOW_FILES || 'flows/new-pfa.json,flows/existing-pfa.json').split(',').map((f) => f.trim());

for (const file of files) {
  const flow = readFlow(file);

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
        const account = await walkFlow({ page, request, flow, partner, activity, walk });
        expect(account.token).toBeTruthy();
      });
    }
  });
}
