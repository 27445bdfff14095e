import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { RJSFSchema } from '@rjsf/utils';
import { Wizard } from '@/engine/Wizard';
import { preloadCurrentStep, preloadStep, preloadStepAt } from '@/engine/preload';
import { loadedValidator } from '@/engine/validators';
import { FLOWS } from '@/engine/flows';
import { requestFlow } from '@/engine/request-flow';
import { currentStep } from '@/core/flow';
import type { RegistrationRequest } from '@/core/api-types';
import { fakeApi, fakeServices, renderAt, request, t } from './render';
import { fields, lazyComponent, preloadStepComponents, widgets } from '../../widgets/registry';

afterEach(cleanup);

describe('step preloading (the validator and widgets arrive with the request)', () => {
  it('preloads the validator of the step at an address', async () => {
    expect(loadedValidator('card.json')).toBeNull();
    await preloadStepAt(FLOWS[2], '/infiintare-pfa/8');
    const validator = loadedValidator('card.json');
    expect(validator).not.toBeNull();
    const schema = (await import('../../schemas/card.json')).default as RJSFSchema;
    expect(validator!.isValid(schema, { ghiseu_card_requested: 1 }, schema)).toBe(true);
    expect(validator!.isValid(schema, {}, schema)).toBe(false);
    expect(validator!.isValid(schema, { ghiseu_card_requested: 2 }, schema)).toBe(false);
  });

  it('an address that is no step, or a step with an unknown schema, preloads nothing and does not fail', async () => {
    await expect(preloadStepAt(FLOWS[2], '/infiintare-pfa/nu-exista')).resolves.toBeUndefined();
    await expect(preloadStep({ schema: 'nu-exista.json', uiSchema: { 'ui:field': 'nu-exista' } })).resolves.toBeUndefined();
  });

  it('preloads the widgets and fields a uiSchema names, at any depth; unknown names are left to rjsf', async () => {
    const loaded = (await preloadStepComponents({ a: { 'ui:widget': 'cardChoice' }, 'ui:field': 'civilStatus', b: { 'ui:widget': 'text' } })) as unknown[];
    expect(loaded).toHaveLength(2);
    expect(loaded.every((mod) => typeof (mod as { default?: unknown }).default === 'function')).toBe(true);
    expect(typeof widgets.cardChoice).toBe('function');
    expect(typeof fields.civilStatus).toBe('function');
  });

  it("preloads the request's current step with its variant (the credit partner's branch office)", async () => {
    const icredit = request('requesting-company-step-6', {}, { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' });
    await preloadCurrentStep(FLOWS[2], icredit);
    expect(loadedValidator('icredit-office.json')).not.toBeNull();
  });

  it('asks for the request the page’s way (the answer it asked for ahead) instead of asking again', async () => {
    const { api } = fakeApi(request('requesting-company-step-4'));
    const openRequest = vi.fn(() => Promise.resolve(request('requesting-company-step-4')));
    renderAt('/infiintare-pfa/4', <Wizard registrationType={2} api={api} services={fakeServices()} openRequest={openRequest} />);
    expect(await screen.findByRole('heading', { level: 1, name: t('steps:civilStatus.title') })).toBeTruthy();
    expect(openRequest).toHaveBeenCalledTimes(1);
    expect(api.get).not.toHaveBeenCalled();
  });

  it('resolves the flow with the variants the server applied, not decided again in the browser', async () => {
    const schemaAt = (answer: RegistrationRequest) => currentStep(requestFlow(FLOWS[2], answer), answer.step).schema;
    // The server's answer says the credit partner's variant applies (its branch-office step)…
    const credit = { ...request('requesting-company-step-6'), variants: ['icredit'] };
    expect(schemaAt(credit)).toBe('icredit-office.json');
    expect(requestFlow(FLOWS[2], credit).variants).toEqual(['icredit']);
    // …or that none does, whatever the partner would make the browser decide.
    const none = { ...request('requesting-company-step-6', {}, { slug: 'icredit', is_unaffiliated: false, name: 'iCredit' }), variants: [] };
    expect(schemaAt(none)).not.toBe('icredit-office.json');
    // Once per answer: the same answer, the same resolved flow.
    expect(requestFlow(FLOWS[2], credit)).toBe(requestFlow(FLOWS[2], credit));
  });
});

describe('a lazily registered widget', () => {
  it("is mounted once: re-rendering its parent after the chunk arrives keeps the same instance (and its state)", async () => {
    let mounts = 0;
    function Counter({ label }: { label: string }) {
      const [instance] = useState(() => ++mounts);
      return <p>{`${label} ${instance}`}</p>;
    }
    let arrive: (mod: { default: typeof Counter }) => void = () => undefined;
    const entry = lazyComponent(() => new Promise((resolve) => (arrive = resolve)));
    const view = render(<entry.Component label="Semnătură" />);
    await act(async () => arrive({ default: Counter }));
    expect(await screen.findByText('Semnătură 1')).toBeTruthy();
    view.rerender(<entry.Component label="Semnătura" />);
    await act(async () => undefined);
    expect(await screen.findByText('Semnătura 1')).toBeTruthy();
    expect(mounts).toBe(1);
  });

});
