import { describe, expect, it } from 'vitest';
import { formatTrace, longTasks, owner, selfTimeByOwner, type CpuProfile, type TraceEvent } from '../../scripts/bench-trace';

/**
 * scripts/bench-trace.ts (`npm run bench:web -- --trace`): the main thread's long tasks named by what
 * filled them, and the profile's self time by package or app folder.
 */
const main = { pid: 1, tid: 7 };
const x = (name: string, ts: number, dur: number, where = main): TraceEvent => ({ name, ph: 'X', ts, dur, ...where });

describe('bench-trace', () => {
  it('longTasks: the tasks of 15 ms or more on the main thread, from the document request on, named by their largest kind', () => {
    const t0 = 1_000_000;
    const events = [
      x('RunTask', t0 - 200_000, 140_000), // the previous page's
      x('RunTask', t0 + 100_000, 240_000),
      x('v8.evaluateModule', t0 + 100_500, 230_000),
      x('MinorGC', t0 + 200_000, 12_000),
      x('RunTask', t0 + 400_000, 30_000),
      x('UpdateLayoutTree', t0 + 400_100, 8_000),
      x('Layout', t0 + 408_200, 20_000),
      x('RunTask', t0 + 500_000, 14_000), // too short
      x('RunTask', t0 + 600_000, 50_000, { pid: 2, tid: 7 }), // another process
      x('RunTask', t0 + 700_000, 16_000),
    ];
    expect(longTasks(events, main, t0)).toEqual([
      { start: 100, ms: 240, kind: 'module evaluation' },
      { start: 400, ms: 30, kind: 'layout' },
      { start: 700, ms: 16, kind: 'other' },
    ]);
  });

  it('owner: the package of a node_modules path (scoped too), else the app folder', () => {
    expect(owner('../../node_modules/react-dom/cjs/react-dom-client.production.js')).toBe('react-dom');
    expect(owner('../../node_modules/@chakra-ui/react/dist/esm/styled-system/system.js')).toBe('@chakra-ui/react');
    expect(owner('../../../src/shared/useT.ts')).toBe('src/shared');
    expect(owner('../../widgets/id-capture/IdentityField.tsx')).toBe('widgets/id-capture');
    expect(owner('../../src/boot.ts')).toBe('src/boot');
    expect(owner('virtual:step-validator/identity.json.js')).toBe('virtual:step-validator/identity.json.js');
  });

  it('selfTimeByOwner: each sample counts until the next one, inside the window, through the source map; idle left out', () => {
    const origin = 'http://127.0.0.1:4000';
    const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)', '') },
        { id: 2, callFrame: frame('createSystem', `${origin}/assets/framework-1.js`, 3) },
        { id: 3, callFrame: frame('render', `${origin}/assets/framework-1.js`, 9) },
        { id: 4, callFrame: frame('(garbage collector)', '') },
        { id: 5, callFrame: frame('start', `${origin}/assets/main-2.js`) },
      ],
      startTime: 0,
      // samples at 1000, 3000, 6000, 10000, 15000, 21000 µs
      samples: [2, 3, 2, 4, 1, 5],
      timeDeltas: [1000, 2000, 3000, 4000, 5000, 6000],
    };
    const map = (file: string, line: number) =>
      file === 'framework-1.js' ? (line === 3 ? 'node_modules/@chakra-ui/react/dist/esm/system.js' : 'node_modules/react-dom/cjs/client.js') : null;
    expect(selfTimeByOwner(profile, 0, 16_000, origin, map)).toEqual([
      { owner: '@chakra-ui/react', ms: 6 }, // 2 + 4
      { owner: 'GC', ms: 5 },
      { owner: 'react-dom', ms: 3 },
    ]);
    // Without a map, the asset's own name.
    expect(selfTimeByOwner(profile, 20_000, 30_000, origin, () => null)).toEqual([{ owner: 'main-2.js', ms: 0 }]);
  });

  it('formatTrace: the paints, the tasks with a rough blocking time, and the owners of 1 ms or more', () => {
    const lines = formatTrace({
      firstPaint: 251.2,
      lcp: 868.4,
      tasks: [
        { start: 414, ms: 239, kind: 'module evaluation' },
        { start: 699, ms: 35, kind: 'timer' },
      ],
      code: [
        { owner: 'react-dom', ms: 87.4 },
        { owner: 'src/shared', ms: 0.4 },
      ],
    });
    expect(lines[0]).toBe('    trace (one load, unthrottled): first contentful paint 251 ms, last LCP candidate 868 ms; 2 tasks ≥ 15 ms, 274 ms (×4 − 50 ms each: 996 ms)');
    expect(lines.slice(1)).toEqual(['      at 414 ms: 239 ms, module evaluation', '      at 699 ms: 35 ms, timer', '    self time by code: react-dom 87 ms']);
  });
});
