import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { browser } from '@/shared/browser';
import { session } from '@/shared/session';
import { request as newRequest } from '../engine/render';
import type { RegistrationRequest } from '@/core/api-types';
import { findH1, makeUser, mockApi, ok, renderApp } from './helpers';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function existingRequest(step: string, paid: boolean): RegistrationRequest {
  return {
    ...newRequest('requesting-company-step-9'),
    registration_type: 1,
    step,
    paid,
    steps: { previous: { identifier: 'existing-company-step-3' }, current: { identifier: step, index: 3 }, next: null, total: 6 },
  };
}

describe('payment confirmation pages (spec 001 §2 item 9, §4 Payment)', () => {
  it('new PFA: polls every 5 s; once paid, pushes the purchase event (119 RON) once and opens the status page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    session.setUser(makeUser({ registration_type: 2 }));
    let polls = 0;
    mockApi({
      'GET /api/registration/open': () => {
        polls += 1;
        return ok({ ...newRequest('requesting-company-step-9'), id: 41, paid: polls >= 2 });
      },
    });
    const app = renderApp('/infiintare-pfa/plata?plata=pay_1');
    expect(await findH1('Confirmăm plata')).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/Așteptăm confirmarea plății/)).toBeTruthy());
    await waitFor(() => expect(polls).toBe(1));
    expect(window.dataLayer).toEqual([]);

    await vi.advanceTimersByTimeAsync(5000);
    await waitFor(() => expect(app.pathname()).toBe('/infiintare-pfa/status'));
    // (The status page reads the request too.)
    expect(polls).toBeGreaterThanOrEqual(2);
    const purchases = window.dataLayer!.filter((e) => e.event === 'purchase');
    expect(purchases).toEqual([{ event: 'purchase', ecommerce: { transaction_id: '41', value: 119, currency: 'RON' } }]);
    cleanup();

    // Back on the page (reload, second tab): the sale is not counted again.
    const again = renderApp('/infiintare-pfa/plata?plata=pay_1');
    await waitFor(() => expect(again.pathname()).toBe('/infiintare-pfa/status'));
    expect(window.dataLayer!.filter((e) => e.event === 'purchase')).toHaveLength(1);
  });

  it('existing PFA: a paid request goes on at the step the server names', async () => {
    session.setUser(makeUser({ registration_type: 1 }));
    const api = mockApi({
      'GET /api/registration/existing/open': ok(existingRequest('existing-company-step-5', true)),
      'GET /api/veriff/get-last-session': ok(null),
    });
    const app = renderApp('/inregistrare/plata?plata=pay_2');
    await waitFor(() => expect(app.pathname()).toBe('/inregistrare/5'));
    // The identity step drawn (its page asked for the last session beside the request): nothing of it is left for the next test.
    expect(await screen.findByTestId('identity-step')).toBeTruthy();
    const poll = api.calls.find((c) => c.path === '/api/registration/existing/open')!;
    expect(poll.query.get('no_next_step')).toBe('1');
    expect(window.dataLayer!.filter((e) => e.event === 'purchase')).toHaveLength(1);
  });

  it('back from a cancelled payment: says so and offers the subscription again', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    mockApi({ 'GET /api/registration/open': ok(newRequest('requesting-company-step-9')) });
    const app = renderApp('/infiintare-pfa/plata?anulata=pay_3');
    expect(await findH1('Plata a fost anulată')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Nu s-a făcut nicio plată. Poți alege din nou abonamentul oricând.')).toBeTruthy());
    await app.user.click(await screen.findByRole('button', { name: 'Înapoi la abonament' }));
    await waitFor(() => expect(app.pathname()).toBe('/infiintare-pfa/9'));
    expect(window.dataLayer!.filter((e) => e.event === 'purchase')).toHaveLength(0);
  });
});

describe('the built-in checkout page', () => {
  const CHECKOUT = {
    id: 'pay_9',
    status: 'open',
    amount: 130,
    currency: 'RON',
    interval: 'month',
    description: '130 lei/lună în primele 3 luni, apoi 72 lei/lună',
    partner: { name: 'iCredit', is_unaffiliated: false, footnote: '130 lei/lună în primele 3 luni, inclusiv înființarea, apoi 72 lei/lună începând cu luna a patra.' },
    product: 'Ghișeu',
    successUrl: 'http://localhost:3000/infiintare-pfa/plata?plata=pay_9',
    cancelUrl: 'http://localhost:3000/infiintare-pfa/plata?anulata=pay_9',
  };

  it('shows the amount and the partner; "Plătește" pays and goes back to the confirmation page', async () => {
    session.setUser(makeUser());
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const api = mockApi({
      'GET /api/checkout/pay_9': ok(CHECKOUT),
      'POST /api/checkout/pay_9/pay': ok({ redirect_url: CHECKOUT.successUrl }),
    });
    const app = renderApp('/checkout/pay_9');
    expect(await findH1('Plată abonament')).toBeTruthy();
    expect(await screen.findByText('130,00 lei / lună')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('iCredit')).toBeTruthy());
    await waitFor(() => expect(screen.getByText(/nu îți cerem cardul/)).toBeTruthy());
    await app.user.click(await screen.findByRole('button', { name: 'Plătește' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT.successUrl));
    expect(api.apiCalls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/checkout/pay_9', 'POST /api/checkout/pay_9/pay']);
  });

  it('"Anulează" goes back with the cancel address; a cancelled checkout offers no payment', async () => {
    session.setUser(makeUser());
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    mockApi({
      'GET /api/checkout/pay_9': ok(CHECKOUT),
      'POST /api/checkout/pay_9/cancel': ok({ redirect_url: CHECKOUT.cancelUrl }),
    });
    const app = renderApp('/checkout/pay_9');
    await app.user.click(await screen.findByRole('button', { name: 'Anulează' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(CHECKOUT.cancelUrl));
    cleanup();

    mockApi({ 'GET /api/checkout/pay_9': ok({ ...CHECKOUT, status: 'cancelled' }) });
    renderApp('/checkout/pay_9');
    expect(await screen.findByText('Această plată a fost anulată.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Plătește' })).toBeNull();
  });

  it('someone else’s or an unknown checkout shows the server’s message', async () => {
    session.setUser(makeUser());
    mockApi({ 'GET /api/checkout/pay_x': { status: 404, body: { message: 'Plata nu a fost găsită.', payload: null } } });
    renderApp('/checkout/pay_x');
    expect(await screen.findByText('Plata nu a fost găsită.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Plătește' })).toBeNull();
  });
});
