import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Partner } from '@/core/api-types';
import { session } from '@/shared/session';
import { findH1, invalid, makeUser, mockApi, ok, renderApp } from './helpers';

function partners(count: number, extra: Partial<Partner>[] = []): Partner[] {
  const list: Partner[] = [{ id: 1, name: 'Abonament standard', slug: 'ghiseu', is_unaffiliated: true }];
  for (let i = 2; i <= count; i++) list.push({ id: i, name: `Partener ${i}`, slug: `partener-${i}`, is_unaffiliated: false });
  extra.forEach((p, i) => Object.assign(list[i + 1], p));
  return list;
}

function submitButton() {
  return screen.getByRole('button', { name: 'Vreau cont Ghișeu' }) as HTMLButtonElement;
}

async function fillAccount(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Adresa de e-mail'), 'ana@example.ro');
  await user.type(await screen.findByLabelText('Telefon'), '0712345678');
  await user.type(await screen.findByLabelText('Parola'), 'secret1');
}

describe('register type selection', () => {
  it("stores the chosen type and goes to the account form, keeping the partner and the query", async () => {
    mockApi();
    const { user, router } = renderApp('/register/icredit?utm_source=x');
    await findH1('Creează-ți contul Ghișeu');
    await waitFor(() => expect(screen.getByRole('radio', { name: /Am PFA/ })).toBeTruthy());
    await user.click(await screen.findByRole('radio', { name: /Vreau PFA/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register/account/icredit'));
    expect(router.state.location.search).toBe('?utm_source=x');
    expect(session.get().registration.type).toBe(2);
    expect(JSON.parse(localStorage.getItem('registration')!)).toEqual({ type: 2 });
  });
});

describe('register account', () => {
  it('sends the user back to type selection when no type was chosen', async () => {
    mockApi({ 'GET /api/partner/index': ok(partners(2)) });
    const { pathname, router } = renderApp('/register/account/icredit?ref=A');
    await waitFor(() => expect(pathname()).toBe('/register/icredit'));
    expect(router.state.location.search).toBe('?ref=A');
  });

  it('keeps submit disabled until e-mail, phone, password, partner and the checkbox are all filled', async () => {
    session.setRegistrationType(2);
    mockApi({ 'GET /api/partner/index': ok(partners(3)) });
    const { user } = renderApp('/register/account');
    await findH1('Datele contului tău');
    await waitFor(() => expect(screen.getByLabelText('Telefon').getAttribute('placeholder')).toBe('07xxxxxxxx'));
    await waitFor(() => expect(screen.getByLabelText('Telefon').getAttribute('inputmode')).toBe('tel'));
    await waitFor(() => expect(screen.getByText('Minim 6 caractere')).toBeTruthy());
    // With no slug the unaffiliated partner is preselected and the choice stays open.
    const standard = (await screen.findByRole('radio', { name: 'Abonament standard' })) as HTMLInputElement;
    expect(standard.checked).toBe(true);
    expect(standard.disabled).toBe(false);

    expect(submitButton().disabled).toBe(true);
    await user.type(await screen.findByLabelText('Adresa de e-mail'), 'ana@example.ro');
    expect(submitButton().disabled).toBe(true);
    await user.type(await screen.findByLabelText('Telefon'), '0712345678');
    expect(submitButton().disabled).toBe(true);
    await user.type(await screen.findByLabelText('Parola'), 'secret1');
    expect(submitButton().disabled).toBe(true);
    const terms = await screen.findByRole('checkbox', { name: /Accept termenii și condițiile/ });
    await user.click(terms);
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    await user.clear(await screen.findByLabelText('Telefon'));
    expect(submitButton().disabled).toBe(true);
  });

  it('stays disabled without a partner when there is no unaffiliated partner to preselect', async () => {
    session.setRegistrationType(1);
    mockApi({ 'GET /api/partner/index': ok(partners(3).map((p) => ({ ...p, is_unaffiliated: false }))) });
    const { user } = renderApp('/register/account');
    await screen.findByRole('radio', { name: 'Partener 2' });
    await fillAccount(user);
    await user.click(await screen.findByRole('checkbox', { name: /Accept termenii/ }));
    expect(submitButton().disabled).toBe(true);
    await user.click(await screen.findByRole('radio', { name: 'Partener 2' }));
    await waitFor(() => expect(submitButton().disabled).toBe(false));
  });

  it('preselects and locks the partner of the route slug, and asks the server with selected_partner', async () => {
    session.setRegistrationType(2);
    const api = mockApi({ 'GET /api/partner/index': ok(partners(3, [{ slug: 'icredit', name: 'iCredit' }])) });
    renderApp('/register/account/icredit');
    const icredit = (await screen.findByRole('radio', { name: 'iCredit' })) as HTMLInputElement;
    expect(icredit.checked).toBe(true);
    for (const radio of screen.getAllByRole('radio') as HTMLInputElement[]) expect(radio.disabled).toBe(true);
    const call = api.calls.find((c) => c.path === '/api/partner/index')!;
    expect(call.query.get('selected_partner')).toBe('icredit');
  });

  it('uses radio cards under 7 partners and a dropdown from 7 on', async () => {
    session.setRegistrationType(2);
    mockApi({ 'GET /api/partner/index': ok(partners(6)) });
    const first = renderApp('/register/account');
    await screen.findByRole('radio', { name: 'Partener 6' });
    await waitFor(() => expect(screen.getByRole('group', { name: 'Tip abonament' })).toBeTruthy());
    expect(screen.queryByRole('combobox')).toBeNull();
    first.unmount();

    mockApi({ 'GET /api/partner/index': ok(partners(7, [{ slug: 'curier' }])) });
    renderApp('/register/account/curier');
    const select = (await screen.findByRole('combobox', { name: 'Tip abonament' })) as HTMLSelectElement;
    expect(screen.queryByRole('radio', { name: /Partener/ })).toBeNull();
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Selectează tipul de abonament' })).toBeTruthy());
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(8));
    // Locked by the slug: partner 2 (slug "curier") is chosen and the dropdown is disabled.
    expect(select.value).toBe('2');
    expect(select.disabled).toBe(true);
  });

  it("shows 'Nu exista tipuri de abonament' when there are none", async () => {
    session.setRegistrationType(2);
    mockApi({ 'GET /api/partner/index': ok([]) });
    renderApp('/register/account');
    expect(await screen.findByText('Nu exista tipuri de abonament')).toBeTruthy();
  });

  it('posts the payload with the tracked cookies and the referral code, stores the user, tracks the lead and redirects', async () => {
    session.setRegistrationType(2);
    document.cookie = 'utm_source=google';
    document.cookie = 'utm_campaign=primavara';
    document.cookie = 'ghiseu_first_source=' + encodeURIComponent('google / cpc');
    document.cookie = 'ghiseu_campaigns_list=a%2Cb';
    document.cookie = '_ga=GA1.2.111.222';
    document.cookie = 'referral=COOKIEREF';
    document.cookie = 'unrelated=1';
    document.cookie = 'other_first_source=nu';
    const api = mockApi({
      'GET /api/partner/index': ok(partners(3)),
      'POST /api/register': ok(makeUser({ id: 99, registration_type: 2 })),
    });
    const { user, pathname } = renderApp('/register/account?ref=PRIETEN');
    await findH1('Datele contului tău');
    await waitFor(() => expect(screen.getByText('Cod de recomandare: PRIETEN')).toBeTruthy());
    await screen.findByRole('radio', { name: 'Abonament standard' });
    await fillAccount(user);
    await user.click(await screen.findByRole('checkbox', { name: /Accept termenii/ }));
    await user.click(submitButton());

    await waitFor(() => expect(pathname()).toBe('/infiintare-pfa'));
    const call = api.calls.find((c) => c.path === '/api/register')!;
    expect(call.method).toBe('POST');
    const { cookies, ...rest } = call.body;
    expect(rest).toEqual({
      email: 'ana@example.ro',
      password: 'secret1',
      phone: '0712345678',
      referral_code: 'PRIETEN',
      marketing_accepted: true,
      registration_type: 2,
      partner_id: 1,
    });
    expect([...cookies].sort((a: any, b: any) => a.key.localeCompare(b.key))).toEqual([
      { key: '_ga', value: 'GA1.2.111.222' },
      { key: 'ghiseu_campaigns_list', value: 'a,b' },
      { key: 'ghiseu_first_source', value: 'google / cpc' },
      { key: 'referral', value: 'COOKIEREF' },
      { key: 'utm_campaign', value: 'primavara' },
      { key: 'utm_source', value: 'google' },
    ]);
    expect(window.dataLayer).toContainEqual({ event: 'lead', registration_type: 2, user_id: 99 });
    expect(session.user()?.id).toBe(99);
  });

  it('takes the referral code from the cookie when the query has none', async () => {
    session.setRegistrationType(1);
    document.cookie = 'referral=DINCOOKIE';
    mockApi({ 'GET /api/partner/index': ok(partners(2)) });
    renderApp('/register/account');
    expect(await screen.findByText('Cod de recomandare: DINCOOKIE')).toBeTruthy();
  });

  it('shows 422 errors under email, phone, password and the checkbox, focusing the first one', async () => {
    session.setRegistrationType(2);
    mockApi({
      'GET /api/partner/index': ok(partners(3)),
      'POST /api/register': invalid({
        phone: ['Formatul nu este valid.'],
        email: ['Există deja un cont cu această adresă de e-mail.'],
        marketing_accepted: ['Valoarea nu este validă.'],
      }),
    });
    const { user } = renderApp('/register/account');
    await screen.findByRole('radio', { name: 'Abonament standard' });
    await fillAccount(user);
    await user.click(await screen.findByRole('checkbox', { name: /Accept termenii/ }));
    await user.click(submitButton());

    expect(await screen.findByText('Există deja un cont cu această adresă de e-mail.')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Formatul nu este valid.')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('Valoarea nu este validă.')).toBeTruthy());
    const email = await screen.findByLabelText('Adresa de e-mail');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(submitButton().disabled).toBe(true);
    await user.type(email, 'x');
    await user.type(await screen.findByLabelText('Telefon'), '1');
    await user.click(await screen.findByRole('checkbox', { name: /Accept termenii/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Accept termenii/ }));
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    expect(screen.queryByText('Formatul nu este valid.')).toBeNull();
  });
});
