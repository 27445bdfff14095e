import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import newPfa from '../../flows/new-pfa.json';
import existingPfa from '../../flows/existing-pfa.json';
import { guardDecision, nextStepId, previousStepId, resolveFlow, stepsInfo, type Flow } from '../../src/core/flow';
import { auth, placeAtStep, registerUser, requestRowOf, testConfig, testDatabase, type RegisteredUser } from './helpers';

/**
 * Issue 15 "steps are data": a copy of flows/new-pfa.json with two steps swapped (civil status and
 * the card) and an extra step added after the card (a second card question, on the card's
 * endpoint) runs in core and in the API without a line of code changed: the order, the 409 of the
 * old order, next/previous and the step guard all follow the file.
 */

const reordered = structuredClone(newPfa) as unknown as Flow;
const civil = reordered.steps.findIndex((s) => s.id === 'requesting-company-step-4');
const card = reordered.steps.findIndex((s) => s.id === 'requesting-company-step-8');
[reordered.steps[civil], reordered.steps[card]] = [reordered.steps[card], reordered.steps[civil]];
const extra = {
  ...structuredClone(reordered.steps[civil]),
  id: 'requesting-company-step-10',
  path: '/infiintare-pfa/10',
  submit: {
    endpoint: '/api/registration/collect/card',
    payload: { ghiseu_card_requested: '/ghiseu_card_requested', current_step_identifier: '$step' },
    store: { second_card_requested: 'ghiseu_card_requested' },
  },
};
reordered.steps.splice(civil + 1, 0, extra);

const ORDER = [
  'requesting-company-step-0',
  'requesting-company-step-1',
  'requesting-company-step-2',
  'requesting-company-step-3',
  'requesting-company-step-8',
  'requesting-company-step-10',
  'requesting-company-step-5',
  'requesting-company-step-6',
  'requesting-company-step-7',
  'requesting-company-step-4',
  'requesting-company-step-9',
];

describe('core walks the reordered flow', () => {
  const flow = resolveFlow(reordered, { partner: 'neafiliat', unaffiliated: true, paid: false, activity: 'design-grafic', formData: {} });

  it('has the file order, and next/previous follow it', () => {
    expect(flow.steps.map((s) => s.id)).toEqual(ORDER);
    expect(stepsInfo(flow, 'requesting-company-step-3')).toMatchObject({ next: { identifier: 'requesting-company-step-8' }, total: 11 });
    expect(nextStepId(flow, 'requesting-company-step-8')).toBe('requesting-company-step-10');
    expect(nextStepId(flow, 'requesting-company-step-10')).toBe('requesting-company-step-5');
    expect(nextStepId(flow, 'requesting-company-step-7')).toBe('requesting-company-step-4');
    expect(previousStepId(flow, 'requesting-company-step-9')).toBe('requesting-company-step-4');
    expect(previousStepId(flow, 'requesting-company-step-5')).toBe('requesting-company-step-10');
  });

  it('the step guard sends the old order to where the request is', () => {
    expect(guardDecision(flow, 'requesting-company-step-4', 'requesting-company-step-10')).toEqual({
      action: 'redirect',
      path: '/infiintare-pfa/10',
      stepId: 'requesting-company-step-10',
    });
    expect(guardDecision(flow, 'requesting-company-step-10', 'requesting-company-step-10')).toEqual({ action: 'stay' });
  });
});

describe('the API runs the reordered flow', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp(testConfig(), { database: await testDatabase(), flows: [reordered, existingPfa as unknown as Flow], checkAnswers: true });
    await app.ready();
  });
  afterAll(() => app?.close());

  const post = (user: RegisteredUser, url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, headers: auth(user.token), payload });

  it('each step submits in the new order; the old order answers 409 and changes nothing', async () => {
    const user = await registerUser(app);
    await placeAtStep(app, user, 'requesting-company-step-8');

    // Civil status was step 4, before the card: now it is not the request's step.
    const early = await post(user, '/api/registration/collect/civil-status', { is_married: false, marital_status_id: null, current_step_identifier: 'requesting-company-step-4' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: 'Acest pas a fost deja trimis. Te ducem la pasul la care ai rămas.', payload: { step: 'requesting-company-step-8' } });
    expect(await requestRowOf(app, user)).toMatchObject({ step: 'requesting-company-step-8', formData: {} });

    const cardAnswer = await post(user, '/api/registration/collect/card', { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' });
    expect(cardAnswer.statusCode).toBe(200);
    expect(cardAnswer.json().payload.steps).toMatchObject({ current: { identifier: 'requesting-company-step-10', index: 5 }, total: 11 });

    // The extra step shares the card's endpoint: the same call now answers for the extra step only.
    const again = await post(user, '/api/registration/collect/card', { ghiseu_card_requested: 0, current_step_identifier: 'requesting-company-step-8' });
    expect(again.statusCode).toBe(409);
    const second = await post(user, '/api/registration/collect/card', { ghiseu_card_requested: 0, current_step_identifier: 'requesting-company-step-10' });
    expect(second.statusCode).toBe(200);
    expect(second.json().payload).toMatchObject({ step: 'requesting-company-step-5', form_data: { ghiseu_card_requested: 1, second_card_requested: 0 } });

    // Back goes through the new order too.
    const back = await post(user, '/api/registration/steps/previous', { current_step_identifier: 'requesting-company-step-5' });
    expect(back.json().payload.step).toBe('requesting-company-step-10');
    await post(user, '/api/registration/steps/next', { current_step_identifier: 'requesting-company-step-10' });

    // Civil status now comes after the overview and leads to the pricing step.
    await placeAtStep(app, user, 'requesting-company-step-4');
    const lateCard = await post(user, '/api/registration/collect/card', { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' });
    expect(lateCard.statusCode).toBe(409);
    expect((await requestRowOf(app, user)).step).toBe('requesting-company-step-4');
    const civilAnswer = await post(user, '/api/registration/collect/civil-status', { is_married: false, marital_status_id: null, current_step_identifier: 'requesting-company-step-4' });
    expect(civilAnswer.statusCode).toBe(200);
    expect(civilAnswer.json().payload.step).toBe('requesting-company-step-9');
    expect((await requestRowOf(app, user)).formData).toMatchObject({ ghiseu_card_requested: 1, second_card_requested: 0, is_married: false });
  });

  it('a flow naming a rule the server does not have is refused at start', async () => {
    const broken = structuredClone(reordered);
    broken.steps[2].rule = 'activitiez';
    await expect(buildApp(testConfig(), { database: await testDatabase(), flows: [broken, existingPfa as unknown as Flow] })).rejects.toThrow(
      'names the rule "activitiez"',
    );
  });
});
