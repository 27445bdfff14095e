import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from '@playwright/test';

/**
 * axe-core in Playwright, shared by the specs that check a screen for accessibility violations
 * (the guest pages, the sweep of both flows). The page's CSP forbids injected inline scripts, so
 * axe is evaluated through the DevTools protocol (`page.evaluate`), which the CSP does not govern.
 */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The phone and desktop sizes every screen is checked at (issue 17). */
export const VIEWPORTS = {
  phone: { width: 360, height: 640 },
  desktop: { width: 1280, height: 800 },
} as const;

/** axe's violations on the page as it is now: `rule: [targets] (first node's summary)`, empty when none. */
export async function axeViolations(page: Page): Promise<string[]> {
  // What is moving is measured as it ends (a toast fading in, a panel opening): endless spinners aside.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  // Loaded once per document (a navigation brings a new one).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource}\n;undefined`);
  return page.evaluate(async () => {
    type Result = { id: string; nodes: { target: unknown; failureSummary?: string; html: string }[] };
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Result[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))} ${v.nodes[0]?.html ?? ''} ${(v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ')}`);
  });
}
