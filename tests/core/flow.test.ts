import { describe, expect, it } from 'vitest';
import newPfaJson from '../../flows/new-pfa.json';
import existingPfaJson from '../../flows/existing-pfa.json';
import {
  buildPayload,
  evaluate,
  guardDecision,
  mergePatch,
  planSubmit,
  progress,
  resolveFlow,
  stepByPath,
  stepsInfo,
  type Flow,
  type FlowContext,
} from '@/core/flow';

const newPfa = newPfaJson as unknown as Flow;
const existingPfa = existingPfaJson as unknown as Flow;

const ctx = (partial: Partial<FlowContext> = {}): FlowContext => ({
  partner: 'neafiliat',
  unaffiliated: true,
  activity: null,
  formData: {},
  ...partial,
});

describe('conditions', () => {
  it('match partner, activity, unaffiliated and form-data fields, combined with all/any/not', () => {
    const c = ctx({ partner: 'icredit', unaffiliated: false, activity: 'taxi', formData: { reasons: ['niciuna'], is_married: true, x: '' } });
    expect(evaluate({ partner: 'icredit' }, c)).toBe(true);
    expect(evaluate({ partner: ['curier', 'icredit'] }, c)).toBe(true);
    expect(evaluate({ activity: 'curier' }, c)).toBe(false);
    expect(evaluate({ unaffiliated: false }, c)).toBe(true);
    expect(evaluate({ field: '/reasons', contains: 'niciuna' }, c)).toBe(true);
    expect(evaluate({ field: '/is_married', equals: true }, c)).toBe(true);
    expect(evaluate({ field: '/x', empty: true }, c)).toBe(true);
    expect(evaluate({ field: '/missing', in: [1, 2] }, c)).toBe(false);
    expect(evaluate({ all: [{ activity: 'taxi' }, { not: { partner: 'icredit' } }] }, c)).toBe(false);
    expect(evaluate({ any: [{ activity: 'curier' }, { partner: 'icredit' }] }, c)).toBe(true);
  });
});

describe('mergePatch (RFC 7386)', () => {
  it('merges objects, replaces arrays and scalars, deletes with null', () => {
    expect(mergePatch({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, d: null, e: 'x' })).toEqual({ a: { b: 1, c: [3] }, e: 'x' });
  });
});

describe('new-pfa.json', () => {
  it('has the spec order 0..9 under /infiintare-pfa for every partner and activity', () => {
    for (const partner of ['neafiliat', 'icredit', 'curier']) {
      for (const activity of [null, 'curier', 'taxi', 'consultant-credite', 'psihoterapeut', 'medicina', 'consultanta-it', 'question-mark']) {
        const flow = resolveFlow(newPfa, ctx({ partner, unaffiliated: partner === 'neafiliat', activity }));
        expect(flow.steps.map((s) => s.id)).toEqual(Array.from({ length: 10 }, (_, i) => `requesting-company-step-${i}`));
        expect(flow.steps.map((s) => s.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/infiintare-pfa/${i}`));
      }
    }
  });

  it('applies the unaffiliated variant: pricing title without the partner', () => {
    const flow = resolveFlow(newPfa, ctx());
    expect(flow.variants).toEqual(['unaffiliated']);
    expect(flow.steps[9].title).toBe('steps:pricing.titleUnaffiliated');
    expect(resolveFlow(newPfa, ctx({ partner: 'curier', unaffiliated: false })).steps[9].title).toBe('steps:pricing.titlePartner');
  });

  it('after the dossier was sent, the overview button is "Status dosar" and leads to the status page', () => {
    const before = resolveFlow(newPfa, ctx({ formData: { address_type: 1 } }));
    expect(before.steps[7].copy?.submit).toBeUndefined();
    expect(planSubmit(before.steps[7], ctx({ formData: { address_type: 1 } })).endpoint).toBe('/api/registration/send');

    const sent = ctx({ activity: 'question-mark', formData: { address_type: 1, submitted_at: '2026-11-23T10:00:00Z' } });
    const flow = resolveFlow(newPfa, sent);
    expect(flow.variants).toEqual(['unaffiliated', 'activity-unknown', 'dossier-sent']);
    const overview = flow.steps[7];
    expect(overview.copy).toEqual({ notice: 'steps:overview.codesByOperator', submit: 'steps:overview.statusButton' });
    expect(planSubmit(overview, sent)).toMatchObject({
      endpoint: '/api/registration/steps/next',
      body: { current_step_identifier: 'requesting-company-step-7' },
      navigate: 'requesting-company-status',
    });
  });

  it('under the credit partner an unknown activity keeps the locked codes: operators do not set them (spec 001 §5)', () => {
    const flow = resolveFlow(newPfa, ctx({ partner: 'icredit', unaffiliated: false, activity: 'question-mark' }));
    expect(flow.variants).toEqual(['icredit']);
    const options = flow.steps[7].uiSchema?.['ui:options'] as { lockedCodes?: string[]; codesByOperator?: boolean };
    expect(options.lockedCodes).toEqual(['8291', '6619']);
    expect(options.codesByOperator).toBeUndefined();
    expect(resolveFlow(newPfa, ctx({ activity: 'question-mark' })).variants).toContain('activity-unknown');
  });

  it('applies the icredit variant: branch office mailing step, locked CAEN 8291 and 6619, credit-partner documents', () => {
    const flow = resolveFlow(newPfa, ctx({ partner: 'icredit', unaffiliated: false }));
    expect(flow.variants).toEqual(['icredit']);
    const mailing = flow.steps[6];
    expect(mailing.schema).toBe('icredit-office.json');
    expect(mailing.submit.endpoint).toBe('/api/registration/collect/icredit-office');
    expect(mailing.submit.payload).toEqual({ icredit_county_id: '/icredit_county_id', icredit_office_id: '/icredit_office_id', current_step_identifier: '$step' });
    expect((flow.steps[7].uiSchema?.['ui:options'] as { lockedCodes: string[] }).lockedCodes).toEqual(['8291', '6619']);
    expect((flow.steps[3].uiSchema?.['ui:options'] as { licenceStatus: number }).licenceStatus).toBe(1);
    // The base flow is untouched.
    expect(newPfa.steps[6].schema).toBe('mailing-address.json');
  });

  it.each([
    ['curier', 'licence', 'courier'],
    ['taxi', 'licence', 'taxi'],
    ['consultant-credite', 'licence', 'credit-certificate'],
  ])('activity %s sets the documents step option %s=%s', (activity, option, value) => {
    const flow = resolveFlow(newPfa, ctx({ activity }));
    expect((flow.steps[3].uiSchema?.['ui:options'] as Record<string, unknown>)[option]).toBe(value);
  });

  it('a credit consultant under the credit partner gets no certificate block (the answer fixed to 1, the partner note instead)', () => {
    const flow = resolveFlow(newPfa, ctx({ partner: 'icredit', unaffiliated: false, activity: 'consultant-credite' }));
    expect(flow.variants).toEqual(['icredit', 'activity-credit-consultant', 'credit-consultant-credit-partner']);
    expect(flow.steps[3].uiSchema?.['ui:options']).toMatchObject({
      licence: 'credit-certificate',
      licenceStatus: 1,
      licenceNote: 'steps:documents.licence.creditPartnerNote',
    });
  });

  it('psychotherapist and medic change the documents copy; question-mark and IT consulting the overview', () => {
    expect((resolveFlow(newPfa, ctx({ activity: 'psihoterapeut' })).steps[3].uiSchema?.['ui:options'] as Record<string, unknown>).heading).toBe(
      'steps:documents.psychotherapistHeading',
    );
    expect(resolveFlow(newPfa, ctx({ activity: 'medicina' })).steps[3].copy?.notice).toBe('steps:documents.medicNotice');
    expect(resolveFlow(newPfa, ctx({ activity: 'question-mark' })).steps[7].copy?.notice).toBe('steps:overview.codesByOperator');
    expect(resolveFlow(newPfa, ctx({ activity: 'consultanta-it' })).steps[7].copy?.notice).toBe('steps:activities.itNotice');
  });

  it('the courier partner preselects the courier activity', () => {
    const flow = resolveFlow(newPfa, ctx({ partner: 'curier', unaffiliated: false }));
    expect((flow.steps[2].uiSchema?.['ui:options'] as Record<string, unknown>).preselect).toBe('curier');
  });
});

describe('existing-pfa.json', () => {
  it('orders 1, 2, 3, 4, 5, 7, 6 under /inregistrare: card before signature', () => {
    for (const partner of ['neafiliat', 'icredit', 'curier']) {
      const flow = resolveFlow(existingPfa, ctx({ partner, unaffiliated: partner === 'neafiliat' }));
      expect(flow.steps.map((s) => s.id.replace('existing-company-step-', ''))).toEqual(['1', '2', '3', '4', '5', '7', '6']);
      expect(flow.steps).toHaveLength(7);
    }
  });

  it('partner variants: the unaffiliated pricing title, and each partner walks with its own price', () => {
    const pricing = (partner: string) => {
      const flow = resolveFlow(existingPfa, ctx({ partner, unaffiliated: partner === 'neafiliat' }));
      return { variants: flow.variants, step: flow.steps.find((s) => s.id === 'existing-company-step-4')! };
    };
    const unaffiliated = pricing('neafiliat');
    expect(unaffiliated.variants).toEqual(['unaffiliated']);
    expect(unaffiliated.step.title).toBe('steps:pricing.titleUnaffiliated');
    expect(unaffiliated.step.examples).toEqual([{ selected_stripe_id: 'price_ghiseu_standard_monthly' }]);
    const icredit = pricing('icredit');
    expect(icredit.variants).toEqual(['icredit']);
    expect(icredit.step.title).not.toBe('steps:pricing.titleUnaffiliated');
    expect(icredit.step.examples).toEqual([{ selected_stripe_id: 'price_ghiseu_icredit_monthly' }]);
    const courier = pricing('curier');
    expect(courier.variants).toEqual(['courier-partner']);
    expect(courier.step.examples).toEqual([{ selected_stripe_id: 'price_ghiseu_curier_monthly' }]);
  });

  it('once paid the pricing step drops out: a request there stands at the identity step, whose previous is step 3', () => {
    expect(evaluate({ paid: true }, ctx({ paid: true }))).toBe(true);
    expect(evaluate({ paid: true }, ctx())).toBe(false);
    const paid = resolveFlow(existingPfa, ctx({ paid: true }));
    expect(paid.variants).toContain('paid');
    expect(paid.steps.map((s) => s.id)).not.toContain('existing-company-step-4');
    expect(stepsInfo(paid, 'existing-company-step-4')).toMatchObject({ current: { identifier: 'existing-company-step-5' }, previous: { identifier: 'existing-company-step-3' }, total: 6 });
    // The new PFA keeps its steps: a paid request goes to the status page instead (paidRoute).
    expect(resolveFlow(newPfa, ctx({ paid: true })).steps).toHaveLength(10);
    expect(newPfa.paidRoute).toBe('requesting-company-status');
  });
});

describe('navigation', () => {
  const flow = resolveFlow(newPfa, ctx());

  it('computes previous, current, next and total', () => {
    expect(stepsInfo(flow, 'requesting-company-step-0')).toEqual({
      previous: null,
      current: { identifier: 'requesting-company-step-0', index: 0 },
      next: { identifier: 'requesting-company-step-1' },
      total: 10,
    });
    expect(stepsInfo(flow, 'requesting-company-step-9')).toMatchObject({ previous: { identifier: 'requesting-company-step-8' }, next: null });
    expect(progress(flow, 'requesting-company-step-4')).toEqual({ position: 5, total: 10, percent: 50 });
  });

  it('"Am PFA" after paying: the pricing step is done, not gone, so the counter keeps the flow\'s 7 steps', () => {
    const unpaid = resolveFlow(existingPfa, ctx());
    const paid = resolveFlow(existingPfa, ctx({ paid: true }));
    expect(progress(unpaid, 'existing-company-step-4')).toMatchObject({ position: 4, total: 7 });
    // Identity comes after pricing: 5 of 7 before and after the payment (it was "4 din 6" once paid).
    expect(progress(unpaid, 'existing-company-step-5')).toMatchObject({ position: 5, total: 7 });
    expect(progress(paid, 'existing-company-step-5')).toMatchObject({ position: 5, total: 7 });
    expect(progress(paid, 'existing-company-step-6')).toEqual({ position: 7, total: 7, percent: 100 });
    // Navigation still skips it: back from identity goes to "Te-am găsit".
    expect(stepsInfo(paid, 'existing-company-step-5').previous?.identifier).toBe('existing-company-step-3');
  });

  it('a current step dropped by a variant counts as the next remaining one', () => {
    const dropped = resolveFlow({ ...newPfa, variants: [{ id: 'x', when: { partner: 'neafiliat' }, steps: { 'requesting-company-step-3': null } }] }, ctx());
    expect(dropped.steps).toHaveLength(9);
    expect(stepsInfo(dropped, 'requesting-company-step-3').current.identifier).toBe('requesting-company-step-4');
    expect(stepsInfo(dropped, 'requesting-company-step-2').next?.identifier).toBe('requesting-company-step-4');
  });

  it('guards: the route must be the server step', () => {
    expect(guardDecision(flow, 'requesting-company-step-4', 'requesting-company-step-4')).toEqual({ action: 'stay' });
    expect(guardDecision(flow, 'requesting-company-step-7', 'requesting-company-step-4')).toEqual({
      action: 'redirect',
      path: '/infiintare-pfa/4',
      stepId: 'requesting-company-step-4',
    });
    expect(guardDecision(flow, null, 'requesting-company-step-2')).toMatchObject({ path: '/infiintare-pfa/2' });
    // Spec 000 §2.1: only steps 1–9 (new) and 2–7 (existing) are guarded; the questionnaires stay open.
    expect(guardDecision(flow, 'requesting-company-step-0', 'requesting-company-step-4')).toEqual({ action: 'stay' });
    const existing = resolveFlow(existingPfa, ctx());
    expect(guardDecision(existing, 'existing-company-step-1', 'existing-company-step-5')).toEqual({ action: 'stay' });
    expect(guardDecision(existing, 'existing-company-step-2', 'existing-company-step-5')).toMatchObject({ path: '/inregistrare/5' });
    expect(stepByPath(flow, '/infiintare-pfa/3/')?.id).toBe('requesting-company-step-3');
  });
});

describe('submit plans', () => {
  const flow = resolveFlow(newPfa, ctx());

  it('questionnaire: "niciuna" opens the flow, any other reason marks lost with the first ticked', () => {
    const step = flow.steps[0];
    expect(planSubmit(step, ctx({ formData: { reasons: ['niciuna'] } }))).toEqual({
      endpoint: '/api/registration/open',
      method: 'POST',
      encoding: 'json',
      body: { current_step_identifier: 'requesting-company-step-0', reasons: ['niciuna'] },
      navigate: null,
      then: null,
    });
    expect(planSubmit(step, ctx({ formData: { reasons: ['casa-de-marcat', 'platitor-tva'] } }))).toMatchObject({
      endpoint: '/api/mark-as-lost',
      body: { reason_identifier: 'casa-de-marcat' },
      navigate: 'register-questionnaire-info',
    });
  });

  it('pricing: keeps the price at the step (advance false), then asks for the payment page', () => {
    const pricing = flow.steps[9];
    expect(pricing.submit.advance).toBe(false);
    expect(planSubmit(pricing, ctx({ formData: { selected_stripe_id: 'price_x' } }))).toMatchObject({
      endpoint: '/api/registration/collect/partner-price',
      body: { selected_stripe_id: 'price_x', current_step_identifier: 'requesting-company-step-9' },
      then: { endpoint: '/api/stripe/redirect', body: { selected_stripe_id: 'price_x' }, redirect: '/redirect_url' },
    });
  });

  it('maps form data to the payload with $step, pointers, constants and nulls for absent fields', () => {
    expect(buildPayload({ a: '/x/y', s: '$step', c: { const: 3 }, m: '/missing' }, { x: { y: 'v' } }, 'id-1')).toEqual({
      a: 'v',
      s: 'id-1',
      c: 3,
      m: null,
    });
  });
});
