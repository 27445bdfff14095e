import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Wizard } from '@/engine/Wizard';
import type { RegistrationRequest } from '@/core/api-types';
import { fakeApi, fakeServices, location, renderAt, request, stepText, t } from './render';
import { textPattern, textStart } from '../copy';

afterEach(cleanup);

const STEP = 'requesting-company-step-9';
const ICREDIT = {
  slug: 'icredit',
  name: 'iCredit',
  is_unaffiliated: false,
  description: 'Pentru consultanții de credite iCredit: înființarea PFA-ului, contabilitatea și declarațiile fiscale.',
  footnote: '130 lei/lună în primele 3 luni, inclusiv înființarea, apoi 72 lei/lună începând cu luna a patra.',
  prices: [{ id: 2, description: '130 lei/lună în primele 3 luni, apoi 72 lei/lună', stripe_id: 'price_ghiseu_icredit_monthly', amount: 130, currency: 'RON', interval: 'month' }],
};

function pricingRequest(partner: Partial<RegistrationRequest['partner']> & { slug: string; name: string; is_unaffiliated: boolean }, extra: Partial<RegistrationRequest> = {}): RegistrationRequest {
  return { ...request(STEP, {}, partner), ...extra, partner: { ...request(STEP).partner, ...partner } };
}

/** "Vreau Ghișeu" (and its short form beside it, for phones). */
const wantButton = () => screen.getByRole('button', { name: textStart(stepText(STEP, 'submit')) });

describe('the pricing step (flows/new-pfa.json step 9)', () => {
  it('shows the partner title, description, price, four features and footnote; "Vreau Ghișeu" stores the price and opens the payment page', async () => {
    const onRedirect = vi.fn();
    const { api, calls } = fakeApi(pricingRequest(ICREDIT), {
      '/api/registration/collect/partner-price': () => pricingRequest(ICREDIT),
      '/api/stripe/redirect': () => ({ success: true, error_code: null, redirect_url: 'http://localhost:3000/checkout/pay_1' }),
    });
    renderAt('/infiintare-pfa/9', <Wizard registrationType={2} api={api} services={fakeServices()} onRedirect={onRedirect} />);
    expect(await screen.findByRole('heading', { name: stepText(STEP, 'title', { partner: ICREDIT.name }) })).toBeTruthy();
    expect(await screen.findByText(ICREDIT.description)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('price-amount').textContent).toBe(t('steps:pricing.perMonth', { amount: '130' })));
    await waitFor(() => expect(screen.getByTestId('price-footnote').textContent).toContain('130 lei/lună în primele 3 luni, inclusiv înființarea, apoi 72 lei/lună'));
    for (const feature of [
      t('steps:pricing.features.transfer'),
      t('steps:pricing.features.registers'),
      t('steps:pricing.features.einvoice'),
      t('steps:pricing.features.filings'),
    ]) {
      await waitFor(() => expect(screen.getByText(feature)).toBeTruthy());
    }
    // Both labels are there; CSS shows the long one from 1280 px and the short one below.
    expect(wantButton().textContent).toBe(stepText(STEP, 'submit') + stepText(STEP, 'submitShort'));

    await waitFor(() => expect(wantButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(wantButton());
    await waitFor(() => expect(onRedirect).toHaveBeenCalledWith('http://localhost:3000/checkout/pay_1'));
    expect(calls).toEqual([
      { url: '/api/registration/collect/partner-price', body: { selected_stripe_id: 'price_ghiseu_icredit_monthly', current_step_identifier: STEP } },
      { url: '/api/stripe/redirect', body: { selected_stripe_id: 'price_ghiseu_icredit_monthly' } },
    ]);
    // While the browser leaves, the button keeps its spinner (no second press).
    const leaving = document.querySelector('button[data-loading]');
    expect(leaving?.hasAttribute('disabled')).toBe(true);
  });

  it('an unaffiliated user reads "Cât costă Ghișeu?"; a partner with several prices picks one first', async () => {
    const prices = [
      { id: 1, description: 'Abonament lunar', stripe_id: 'price_monthly', amount: 119, currency: 'RON', interval: 'month' },
      { id: 2, description: 'Abonament anual', stripe_id: 'price_yearly', amount: 1190, currency: 'RON', interval: 'year' },
    ];
    const partner = { slug: 'neafiliat', name: 'Standard', is_unaffiliated: true, prices };
    const { api, calls } = fakeApi(pricingRequest(partner), {
      '/api/registration/collect/partner-price': () => pricingRequest(partner),
      '/api/stripe/redirect': () => ({ success: true, error_code: null, redirect_url: 'https://checkout.stripe.com/c/pay/cs_1' }),
    });
    const onRedirect = vi.fn();
    renderAt('/infiintare-pfa/9', <Wizard registrationType={2} api={api} services={fakeServices()} onRedirect={onRedirect} />);
    expect(await screen.findByRole('heading', { name: t('steps:pricing.titleUnaffiliated') })).toBeTruthy();
    await screen.findByText(t('steps:pricing.perYear', { amount: '1.190' }));
    expect(wantButton().hasAttribute('disabled')).toBe(true);
    fireEvent.click(await screen.findByRole('radio', { name: textPattern(t('steps:pricing.perYear', { amount: '1.190' })) }));
    await waitFor(() => expect(wantButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(wantButton());
    await waitFor(() => expect(onRedirect).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_1'));
    expect(calls[1]).toEqual({ url: '/api/stripe/redirect', body: { selected_stripe_id: 'price_yearly' } });
  });

  it('an error code of the redirect is shown in Romanian and the button works again', async () => {
    const onRedirect = vi.fn();
    const { api } = fakeApi(pricingRequest(ICREDIT), {
      '/api/registration/collect/partner-price': () => pricingRequest(ICREDIT),
      '/api/stripe/redirect': () => ({ success: false, error_code: 'payment_unavailable', redirect_url: null }),
    });
    renderAt('/infiintare-pfa/9', <Wizard registrationType={2} api={api} services={fakeServices()} onRedirect={onRedirect} />);
    await waitFor(() => expect(wantButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(wantButton());
    expect(await screen.findByText(t('steps:pricing.errors.payment_unavailable'))).toBeTruthy();
    expect(onRedirect).not.toHaveBeenCalled();
    await waitFor(() => expect(wantButton().hasAttribute('disabled')).toBe(false));
  });

  it('an unknown error code reads the general text', async () => {
    const { api } = fakeApi(pricingRequest(ICREDIT), {
      '/api/registration/collect/partner-price': () => pricingRequest(ICREDIT),
      '/api/stripe/redirect': () => ({ success: false, error_code: 'card_network_down', redirect_url: null }),
    });
    renderAt('/infiintare-pfa/9', <Wizard registrationType={2} api={api} services={fakeServices()} onRedirect={vi.fn()} />);
    await waitFor(() => expect(wantButton().hasAttribute('disabled')).toBe(false));
    fireEvent.click(wantButton());
    expect(await screen.findByText(t('steps:pricing.errors.unknown'))).toBeTruthy();
  });

  it('a paid new-PFA request is sent to the status page (the flow’s paidRoute)', async () => {
    const { api } = fakeApi(pricingRequest(ICREDIT, { paid: true }));
    renderAt('/infiintare-pfa/9', <Wizard registrationType={2} api={api} services={fakeServices()} />);
    await waitFor(() => expect(location()).toBe('/infiintare-pfa/status'));
  });
});
