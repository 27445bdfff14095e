import { describe, expect, it } from 'vitest';
import { formatJourneys, PHONE_THROTTLING, type JourneyStart } from '../../scripts/bench-journey';

/** scripts/bench-journey.ts (`npm run bench:web -- --journey`): the table of the way into the wizard. */
const start = (label: string): JourneyStart => ({ label, path: '/login', fill: async () => undefined, submit: 'Intră în cont', arrives: /^\/infiintare-pfa\/0$/ });

describe('bench-journey', () => {
  it('formatJourneys: per journey the medians, every run of the usable time, and the scripts from the cache', () => {
    expect(
      formatJourneys([
        {
          start: start('/login → the step it leads to'),
          runs: [
            { onScreenMs: 1900, usableMs: 3600, fromCache: 13, scripts: 17 },
            { onScreenMs: 2100, usableMs: 3540, fromCache: 13, scripts: 17 },
            { onScreenMs: 1850, usableMs: 3810, fromCache: 12, scripts: 17 },
          ],
        },
        { start: start('/register/account → the first step'), runs: [{ onScreenMs: 1900, usableMs: 2960, fromCache: 16, scripts: 16 }] },
      ]),
    ).toEqual([
      '| journey | step on screen | step usable | step scripts from the cache |',
      '|---|---|---|---|',
      '| /login → the step it leads to | 1.9 s | 3.6 s (3.6 s, 3.5 s, 3.8 s) | 13 of 17 |',
      '| /register/account → the first step | 1.9 s | 3.0 s (3.0 s) | 16 of 16 |',
    ]);
  });

  it("PHONE_THROTTLING: Lighthouse's mobile preset in its applied form (bytes per second, ms, CPU ×4)", () => {
    expect(PHONE_THROTTLING.latency).toBe(562.5);
    expect(PHONE_THROTTLING.download).toBeCloseTo(188_743.68, 1);
    expect(PHONE_THROTTLING.upload).toBeCloseTo(86_400, 1);
    expect(PHONE_THROTTLING.cpu).toBe(4);
  });
});
