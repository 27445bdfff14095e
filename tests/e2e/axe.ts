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
  // The screen as it settles, as a person reads it: what is moving is measured as it ends (a toast
  // fading in, a panel opening, a button's colour after it is enabled; endless spinners aside), and a
  // change React is about to commit (a button leaving its busy state) is waited for too: 200 ms with
  // no DOM change and nothing moving (at most 10 s: a page that never settles is checked as it is).
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const started = performance.now();
        let changed = started;
        const observer = new MutationObserver(() => (changed = performance.now()));
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const tick = () => {
          const now = performance.now();
          if (document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity)) changed = now;
          if (now - changed >= 200 || now - started > 10_000) {
            observer.disconnect();
            resolve();
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
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
