import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Flow } from '@/core/flow';
import { activitiesThatMatter, branchExample, decide, planWalks, priceExample, uncoveredVariants, type SeedActivity, type SeedPartner } from '../e2e/walk-plan';
import { flowsCopy, parseArgs } from '../../scripts/test-flow';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;
const partners = read<{ partners: SeedPartner[] }>('server/db/seed/partners.json').partners;
const activities = read<{ activities: SeedActivity[] }>('server/db/seed/activities.json').activities;
const flowFiles = fs.readdirSync(path.join(root, 'flows')).filter((f) => f.endsWith('.json') && f !== 'flow.schema.json');

describe('the walks of the repository’s flow files', () => {
  it.each(flowFiles)('%s: the CI set meets every variant, walks every partner, and is a subset of --all', (file) => {
    const flow = read<Flow>(`flows/${file}`);
    const ci = planWalks(flow, partners, activities);
    const all = planWalks(flow, partners, activities, { all: true });
    expect(uncoveredVariants(flow, ci.walks)).toEqual([]);
    expect(new Set(ci.walks.map((w) => w.partner))).toEqual(new Set(partners.map((p) => p.slug)));
    const allTitles = all.walks.map((w) => w.title);
    for (const walk of ci.walks) expect(allTitles).toContain(walk.title);
    expect(new Set(allTitles).size).toBe(allTitles.length);
    // Each variant claimed by a walk can apply to it: its condition is not false for that partner and activity.
    for (const walk of ci.walks) {
      for (const id of walk.variants) {
        const variant = flow.variants!.find((v) => v.id === id)!;
        expect(decide(variant.when, partners.find((p) => p.slug === walk.partner)!, walk.activity), `${walk.title}: ${id}`).not.toBe(false);
      }
    }
  });

  it('new PFA: --all is every partner × (each activity a condition names + one none names); the CI set a small cover', () => {
    const flow = read<Flow>('flows/new-pfa.json');
    const codes = activitiesThatMatter(flow, activities);
    expect(codes).toEqual(expect.arrayContaining(['consultanta-it', 'curier', 'taxi', 'consultant-credite', 'psihoterapeut', 'medicina', 'question-mark']));
    // The one no condition names (what every other activity sees), last.
    const other = codes.at(-1)!;
    expect(JSON.stringify(flow)).not.toContain(`"${other}"`);
    const all = planWalks(flow, partners, activities, { all: true });
    expect(all.walks).toHaveLength(partners.length * codes.length);
    expect(all.walks.map((w) => w.title)).toContain('walks the 10 steps for partner icredit with activity consultant-credite');

    const ci = planWalks(flow, partners, activities);
    // One walk per activity variant at least; no more than needed for the variants and partners.
    expect(ci.walks.length).toBeLessThanOrEqual(codes.length);
    const credit = ci.walks.find((w) => w.variants.includes('credit-consultant-credit-partner'))!;
    expect(credit).toMatchObject({ partner: 'icredit', activity: 'consultant-credite' });
    // The overview after sending is gone back to by one walk.
    expect(ci.walks.filter((w) => w.revisit.includes('dossier-sent'))).toHaveLength(1);
    expect(ci.walks.flatMap((w) => w.revisit)).toEqual(['dossier-sent']);
  });

  it('the questionnaire’s lost branch is a short test of each flow file', () => {
    for (const file of flowFiles) {
      const flow = read<Flow>(`flows/${file}`);
      const { branches } = planWalks(flow, partners, activities);
      const questionnaire = flow.steps.find((s) => s.uiSchema?.reasons)!;
      expect(branches).toEqual([expect.objectContaining({ step: questionnaire.id, branch: 0, route: 'register-questionnaire-info', partner: partners[0].slug })]);
      const example = branchExample(questionnaire.examples![0], questionnaire.submit.branches![0], ['niciuna', 'venit-mic', 'alt-motiv']);
      expect(example).toEqual({ reasons: ['venit-mic'] });
      expect(branchExample(questionnaire.examples![0], questionnaire.submit.branches![0], ['niciuna'])).toBeNull();
    }
  });

  it('existing PFA: one walk per partner, without an activity', () => {
    const flow = read<Flow>('flows/existing-pfa.json');
    const ci = planWalks(flow, partners, activities);
    expect(ci.walks.map((w) => w.title)).toEqual(partners.map((p) => `walks the ${flow.steps.length} steps for partner ${p.slug}`));
    expect(ci.walks.every((w) => w.activity === null)).toBe(true);
    // "paid" depends on the payment, not on who walks: one walk is credited with it.
    expect(ci.walks.filter((w) => w.variants.includes('paid'))).toHaveLength(1);
  });
});

describe('planWalks on a made-up flow', () => {
  const step = (id: string, extra: Record<string, unknown> = {}) => ({ id, path: `/x/${id}`, schema: 'card.json', title: 'steps:card.title', submit: { endpoint: '/api/x', payload: {} }, ...extra });
  const flow = {
    id: 'x',
    registrationType: 2,
    basePath: '/x',
    title: 'common:flows.new',
    api: { open: '/o', next: '/n', previous: '/p' },
    steps: [step('a', { uiSchema: { 'ui:field': 'activities' }, examples: [{ activity_id: 3 }] }), step('b')],
    variants: [
      { id: 'p2', when: { partner: 'p2' }, steps: { b: {} } },
      { id: 'taxi-or-medic', when: { activity: ['taxi', 'medic'] }, steps: { b: {} } },
      { id: 'p3-not-medic', when: { all: [{ partner: 'p3' }, { not: { activity: 'medic' } }] }, steps: { b: {} } },
      { id: 'sent', when: { field: '/sent_at', empty: false }, steps: { a: {} } },
    ],
  } as unknown as Flow;
  const ps: SeedPartner[] = [
    { slug: 'p1', is_unaffiliated: true },
    { slug: 'p2', is_unaffiliated: false },
    { slug: 'p3', is_unaffiliated: false },
  ];
  const acts: SeedActivity[] = [
    { id: 1, code: 'taxi' },
    { id: 2, code: 'medic' },
    { id: 3, code: 'design' },
    { id: 4, code: 'video' },
  ];

  it('the activities that matter: the named ones, then the example’s if no condition names it', () => {
    expect(activitiesThatMatter(flow, acts)).toEqual(['taxi', 'medic', 'design']);
  });

  it('covers every variant and partner with few walks, and revisits the form-data variant in one', () => {
    const { walks } = planWalks(flow, ps, acts);
    expect(uncoveredVariants(flow, walks)).toEqual([]);
    expect(new Set(walks.map((w) => w.partner))).toEqual(new Set(['p1', 'p2', 'p3']));
    expect(walks).toHaveLength(3);
    expect(walks.flatMap((w) => w.revisit)).toEqual(['sent']);
    for (const w of walks) expect(w.title).toBe(`walks the 2 steps for partner ${w.partner} with activity ${w.activity}`);
  });

  it('--all: every partner × activity that matters', () => {
    const { walks } = planWalks(flow, ps, acts, { all: true });
    expect(walks.map((w) => `${w.partner}/${w.activity}`)).toEqual(['p1/taxi', 'p1/medic', 'p1/design', 'p2/taxi', 'p2/medic', 'p2/design', 'p3/taxi', 'p3/medic', 'p3/design']);
    expect(walks.find((w) => w.partner === 'p3' && w.activity === 'design')!.variants).toEqual(['p3-not-medic']);
  });

  it('a flow without an activities step: one walk per partner', () => {
    const plain = { ...flow, steps: [step('b')], variants: [flow.variants![0]] } as Flow;
    expect(planWalks(plain, ps, acts, { all: true }).walks.map((w) => [w.partner, w.activity])).toEqual([
      ['p1', null],
      ['p2', null],
      ['p3', null],
    ]);
  });
});

describe('priceExample', () => {
  const pricing = { uiSchema: { selected_stripe_id: { 'ui:widget': 'pricePlans' } } };
  it('keeps the example’s price when the partner has it, else takes the partner’s first', () => {
    const example = { selected_stripe_id: 'price_a' };
    expect(priceExample(pricing, example, [{ stripe_id: 'price_b' }, { stripe_id: 'price_a' }])).toBe(example);
    expect(priceExample(pricing, example, [{ stripe_id: 'price_new' }])).toEqual({ selected_stripe_id: 'price_new' });
    expect(priceExample(pricing, undefined, [{ stripe_id: 'price_new' }])).toEqual({ selected_stripe_id: 'price_new' });
    expect(priceExample({ uiSchema: {} }, example, [{ stripe_id: 'price_new' }])).toBe(example);
  });
});

describe('npm run test:flow', () => {
  it('reads flow files, --all and Playwright options with their values', () => {
    expect(parseArgs(['/tmp/a/new-pfa.json', '--all', '--grep', 'partner icredit ', '--reporter=list'])).toEqual({
      files: ['/tmp/a/new-pfa.json'],
      all: true,
      playwright: ['--grep', 'partner icredit ', '--reporter=list'],
    });
    expect(parseArgs(['--headed', 'flows/new-pfa.json'])).toEqual({ files: ['flows/new-pfa.json'], all: false, playwright: ['--headed'] });
  });

  it('a file outside flows/ takes the place of the file with its registration type in a copy of flows/', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'walk-plan-'));
    try {
      const draft = path.join(tmp, 'draft.json');
      const flow = read<Flow & { title: string }>('flows/new-pfa.json');
      fs.writeFileSync(draft, JSON.stringify({ ...flow, title: 'common:flows.draft' }));
      expect(flowsCopy([path.join(root, 'flows/new-pfa.json')], path.join(tmp, 'none'))).toBeNull();
      const copy = flowsCopy([draft], path.join(tmp, 'flows'))!;
      expect(fs.readdirSync(copy).sort()).toEqual(fs.readdirSync(path.join(root, 'flows')).sort());
      expect(JSON.parse(fs.readFileSync(path.join(copy, 'new-pfa.json'), 'utf8')).title).toBe('common:flows.draft');
      expect(fs.readFileSync(path.join(copy, 'existing-pfa.json'), 'utf8')).toBe(fs.readFileSync(path.join(root, 'flows/existing-pfa.json'), 'utf8'));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
