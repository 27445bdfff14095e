import { describe, expect, it } from 'vitest';
import { routedStepVersions, stepVersions, type Flow } from '../../src/core/flow';

const step = (id: string, endpoint: string) => ({ id, path: id, schema: `${id}.json`, title: id, submit: { endpoint } }) as Flow['steps'][number];

const flow = {
  id: 'f',
  registrationType: 'new',
  basePath: '/f',
  title: 't',
  api: { open: '/o', next: '/n', previous: '/p' },
  steps: [step('a', '/a'), step('b', '/b')],
  variants: [
    { id: 'v1', when: { partner: 'x' }, steps: { b: { submit: { endpoint: '/b-x' } }, c: { title: 'nowhere' } } },
    { id: 'v2', when: { partner: 'y' }, steps: { a: null } },
  ],
} as unknown as Flow;

describe('stepVersions', () => {
  it('lists each base step, then each variant patch of it, merged, in file order', () => {
    const versions = stepVersions(flow);
    expect(versions.map((v) => [v.step.id, v.variant, v.dropped])).toEqual([
      ['a', null, false],
      ['a', 'v2', true],
      ['b', null, false],
      ['b', 'v1', false],
    ]);
    const patched = versions[3];
    expect(patched.step.submit.endpoint).toBe('/b-x');
    expect(patched.step.schema).toBe('b.json');
    expect(patched.patch).toEqual({ submit: { endpoint: '/b-x' } });
    expect(patched.base.submit.endpoint).toBe('/b');
  });

  it('leaves out a patch of a step the flow does not have, and does not change the flow', () => {
    const before = structuredClone(flow);
    expect(stepVersions(flow).some((v) => v.step.id === 'c')).toBe(false);
    expect(flow).toEqual(before);
  });
});

describe('routedStepVersions', () => {
  it('keeps the ready steps, the base steps first, then the variants\' versions', () => {
    const withPending = { ...flow, steps: [...flow.steps, { ...step('c', '/c'), status: 'pending' }], variants: [...flow.variants!, { id: 'v3', when: {}, steps: { c: { title: 'open' } } }] } as unknown as Flow;
    expect(routedStepVersions(withPending).map((v) => [v.step.id, v.variant])).toEqual([
      ['a', null],
      ['b', null],
      ['a', 'v2'],
      ['b', 'v1'],
    ]);
  });
});
