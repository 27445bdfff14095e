/**
 * The step runner in the staff preview (src/pages/staff/preview): the applicant's step, but
 * "Pasul următor" is never held back, hands its plan to the preview instead of the API, and shows
 * the field errors the preview's validation answers; "Înapoi" asks the preview too.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import newPfa from '../../flows/new-pfa.json';
import { resolveFlow, type Flow, type SubmitPlan } from '@/core/flow';
import { StepRunner, type StepPreview } from '@/engine/StepRunner';
import { fakeApi, fakeServices, renderAt, request, stepText, t } from './render';

afterEach(cleanup);

const flow = resolveFlow(newPfa as unknown as Flow, { partner: 'neafiliat', unaffiliated: true, activity: null, formData: {} });
const card = flow.steps.find((s) => s.id === 'requesting-company-step-8')!;

function renderPreview(preview: StepPreview, initialFormData?: Record<string, unknown>) {
  const { api, calls } = fakeApi(request('requesting-company-step-8'));
  const onRequest = vi.fn();
  renderAt(
    '/staff/preview',
    <StepRunner flow={flow} step={card} request={request('requesting-company-step-8')} api={api} services={fakeServices()} onRequest={onRequest} onLeave={vi.fn()} onRedirect={vi.fn()} initialFormData={initialFormData} preview={preview} />,
  );
  return { calls, onRequest };
}

describe('StepRunner with a preview', () => {
  it('starts from the given form data and hands the plan to the preview, not to the API', async () => {
    const plans: SubmitPlan[] = [];
    const { calls, onRequest } = renderPreview({ submit: async (plan) => void plans.push(plan), previous: vi.fn() }, { ghiseu_card_requested: 1 });
    fireEvent.click(await screen.findByRole('button', { name: stepText('requesting-company-step-8', 'submit') }));
    await waitFor(() => expect(plans).toHaveLength(1));
    expect(plans[0]).toMatchObject({ endpoint: '/api/registration/collect/card', body: { ghiseu_card_requested: 1, current_step_identifier: 'requesting-company-step-8' } });
    expect(calls).toEqual([]);
    expect(onRequest).not.toHaveBeenCalled();
  });

  it('keeps "Pasul următor" enabled on an empty form and shows the field errors the preview answers', async () => {
    const submit = vi.fn(async () => {
      throw { status: 422, message: 'Datele trimise nu sunt valide.', fieldErrors: { ghiseu_card_requested: ['Câmpul este obligatoriu.'] } };
    });
    renderPreview({ submit, previous: vi.fn() });
    const next = await screen.findByRole('button', { name: stepText('requesting-company-step-8', 'submit') });
    await waitFor(() => expect((next as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(next);
    expect(await screen.findByText('Câmpul este obligatoriu.')).toBeTruthy();
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('asks the preview for the previous step', async () => {
    const previous = vi.fn();
    renderPreview({ submit: vi.fn(), previous });
    fireEvent.click(await screen.findByRole('button', { name: t('steps:common.previous') }));
    expect(previous).toHaveBeenCalledTimes(1);
  });
});
