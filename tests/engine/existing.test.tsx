import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import type { RegistrationRequest } from '@/core/api-types';
import { fakeApi, fakeServices, location, renderAt, request as newRequest, stepText, t } from './render';
import { textPattern } from '../copy';

afterEach(cleanup);

const ORDER = [1, 2, 3, 4, 5, 7, 6].map((n) => `existing-company-step-${n}`);
const COMPANY = { name: 'POPESCU ION PERSOANĂ FIZICĂ AUTORIZATĂ', address: 'Str. Memorandumului nr. 10, Cluj-Napoca, jud. Cluj', fiscal_code: '42157397', registration_number: 'F12/345/2020' };

/** An existing-PFA request at `step`, as GET /api/registration/existing/open answers it. */
function existing(step: string, extra: Partial<RegistrationRequest> = {}): RegistrationRequest {
  const i = ORDER.indexOf(step);
  return {
    ...newRequest('requesting-company-step-0'),
    registration_type: 1,
    step,
    steps: {
      previous: i > 0 ? { identifier: ORDER[i - 1] } : null,
      current: { identifier: step, index: i },
      next: i < ORDER.length - 1 ? { identifier: ORDER[i + 1] } : null,
      total: ORDER.length,
    },
    ...extra,
  };
}

const button = (name: string) => screen.getByRole('button', { name });

describe('the existing-PFA wizard (flows/existing-pfa.json)', () => {
  it('fiscal code: next waits for a code; a refused code is cleared and its message stays until typing', async () => {
    const { api, calls } = fakeApi(existing('existing-company-step-2'), {
      '/api/registration/existing/collect/company': () => {
        throw { status: 422, message: 'Datele trimise nu sunt valide.', fieldErrors: { fiscal_code: ['Codul fiscal nu este valid: cifra de control nu corespunde.'] } };
      },
    });
    renderAt('/inregistrare/2', <Wizard registrationType={1} api={api} services={fakeServices()} />);
    expect(await screen.findByRole('heading', { name: t('steps:fiscalCode.title') })).toBeTruthy();
    const input = (await screen.findByLabelText(textPattern(t('steps:fiscalCode.label')))) as HTMLInputElement;
    expect(button(stepText('existing-company-step-2', 'submit')).hasAttribute('disabled')).toBe(true);
    fireEvent.change(input, { target: { value: 'RO 42157398' } });
    await waitFor(() => expect(button(stepText('existing-company-step-2', 'submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(stepText('existing-company-step-2', 'submit')));
    // Under the field, once (not repeated at the step's buttons).
    expect((await screen.findByText('Codul fiscal nu este valid: cifra de control nu corespunde.')).getAttribute('role')).toBe('alert');
    await waitFor(() => expect(input.value).toBe(''));
    expect(calls).toEqual([{ url: '/api/registration/existing/collect/company', body: { fiscal_code: 'RO 42157398', current_step_identifier: 'existing-company-step-2' } }]);
    fireEvent.change(input, { target: { value: '4' } });
    await waitFor(() => expect(screen.queryAllByText('Codul fiscal nu este valid: cifra de control nu corespunde.')).toEqual([]));
  });

  it('"Te-am găsit": the PFA read-only; the first press shows the power of attorney, the second confirms', async () => {
    const { api, calls } = fakeApi(existing('existing-company-step-3', { company: COMPANY }), {
      '/api/registration/existing/confirm/company': () => existing('existing-company-step-4', { company: COMPANY }),
    });
    renderAt('/inregistrare/3', <Wizard registrationType={1} api={api} services={fakeServices()} />);
    expect(await screen.findByRole('heading', { name: t('steps:confirmCompany.title') })).toBeTruthy();
    expect((await screen.findByTestId('company-name')).textContent).toBe(COMPANY.name);
    await waitFor(() => expect(screen.getByTestId('company-address').textContent).toBe(COMPANY.address));
    await waitFor(() => expect(screen.getByText('F12/345/2020')).toBeTruthy());
    expect(screen.queryByRole('textbox')).toBeNull();

    await waitFor(() => expect(button(stepText('existing-company-step-3', 'submit')).hasAttribute('disabled')).toBe(false));
    fireEvent.click(button(stepText('existing-company-step-3', 'submit')));
    expect(await screen.findByRole('heading', { name: t('steps:confirmCompany.attorney.title') })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(textPattern(t('steps:confirmCompany.attorney.cost')))).toBeTruthy());
    expect(calls).toEqual([]);
    fireEvent.click(button(stepText('existing-company-step-3', 'submit')));
    await waitFor(() => expect(location()).toBe('/inregistrare/4'));
    expect(calls).toEqual([{ url: '/api/registration/existing/confirm/company', body: { current_step_identifier: 'existing-company-step-3' } }]);
  });
});
