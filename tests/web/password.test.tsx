import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { resetTarget } from '@/pages/ResetPasswordPage';
import { findH1, invalid, mockApi, ok, renderApp } from './helpers';

const ORIGIN = window.location.origin;
const resetUrl = (url: string) => `/password/reset?url=${encodeURIComponent(url)}`;

describe('reset password target check', () => {
  it.each([
    ['https://evil.example/api/password/reset/abc', null],
    ['//evil.example/api/password/reset/abc', null],
    [`${ORIGIN}/api/login`, null],
    [`${ORIGIN}/api/password/reset/`, null],
    ['/api/password/reset/../../login', null],
    ['javascript:alert(1)', null],
    [`${ORIGIN}/api/password/reset/abc`, '/api/password/reset/abc'],
    ['/api/password/reset/abc?x=1', '/api/password/reset/abc?x=1'],
  ])('%s → %s', (url, expected) => {
    expect(resetTarget(url, ORIGIN)).toBe(expected);
  });
});

describe('reset password page', () => {
  it('refuses a foreign-origin url: shows the invalid-link error and posts nothing', async () => {
    const api = mockApi();
    renderApp(resetUrl('https://evil.example/api/password/reset/abc'));
    await findH1('Alege o parolă nouă');
    expect((await screen.findByRole('alert')).textContent).toContain('Linkul de resetare a parolei nu este valid.');
    expect(screen.queryByLabelText('Parola nouă')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resetează' })).toBeNull();
    expect(api.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('refuses a same-origin url outside /api/password/reset/', async () => {
    const api = mockApi();
    renderApp(resetUrl(`${ORIGIN}/api/logout`));
    expect((await screen.findByRole('alert')).textContent).toContain('Linkul de resetare a parolei nu este valid.');
    expect(api.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('posts to the link target, shows the token error above the form, then the success message', async () => {
    let attempt = 0;
    const api = mockApi({
      'POST /api/password/reset/tok1': () =>
        ++attempt === 1
          ? invalid({ token: ['Linkul de resetare a expirat sau a fost deja folosit. Cere unul nou.'] })
          : ok(null, 'Parola a fost schimbată. Te poți autentifica cu noua parolă.'),
    });
    const { user } = renderApp(resetUrl(`${ORIGIN}/api/password/reset/tok1`));
    await findH1('Alege o parolă nouă');
    await user.type(await screen.findByLabelText('Parola nouă'), 'parola-noua');
    await user.type(await screen.findByLabelText('Confirmă parola nouă'), 'parola-noua');
    await user.click(await screen.findByRole('button', { name: 'Resetează' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Linkul de resetare a expirat');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Cere un link nou' }).getAttribute('href')).toBe('/password/forgot'));
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/password/reset/tok1');
    expect(post.body).toEqual({ password: 'parola-noua', password_confirmation: 'parola-noua' });

    await user.click(await screen.findByRole('button', { name: 'Resetează' }));
    expect(await screen.findByText('Parola a fost schimbată. Te poți autentifica cu noua parolă.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Intră în cont' }).getAttribute('href')).toBe('/login'));
  });

  it('shows field errors under the confirmation field', async () => {
    mockApi({ 'POST /api/password/reset/tok1': invalid({ password_confirmation: ['Parolele nu coincid.'] }) });
    const { user } = renderApp(resetUrl('/api/password/reset/tok1'));
    await findH1();
    await user.type(await screen.findByLabelText('Parola nouă'), 'abcdef');
    await user.type(await screen.findByLabelText('Confirmă parola nouă'), 'abcdeg');
    await user.click(await screen.findByRole('button', { name: 'Resetează' }));
    const confirmation = await screen.findByLabelText('Confirmă parola nouă');
    await waitFor(() => expect(confirmation.getAttribute('aria-invalid')).toBe('true'));
    await waitFor(() => expect(screen.getByText('Parolele nu coincid.')).toBeTruthy());
    expect(document.activeElement).toBe(confirmation);
  });
});

describe('forgot password page', () => {
  it("sends the e-mail with 'Trimite' and shows the server's message with a link back to login", async () => {
    const message = 'Dacă adresa are un cont, ți-am trimis pe e-mail un link de resetare a parolei.';
    const api = mockApi({ 'POST /api/password/forgot': ok(null, message) });
    const { user } = renderApp('/password/forgot');
    await findH1('Ai uitat parola?');
    await user.type(await screen.findByLabelText('Adresa de e-mail'), 'ana@example.ro');
    await user.click(await screen.findByRole('button', { name: 'Trimite' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(api.apiCalls()[0].body).toEqual({ email: 'ana@example.ro' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Înapoi la autentificare' }).getAttribute('href')).toBe('/login'));
  });

  it('shows the field error under the e-mail', async () => {
    mockApi({ 'POST /api/password/forgot': invalid({ email: ['Adresa de e-mail nu este validă.'] }) });
    const { user } = renderApp('/password/forgot');
    await findH1();
    await user.type(await screen.findByLabelText('Adresa de e-mail'), 'nu-e-email');
    await user.click(await screen.findByRole('button', { name: 'Trimite' }));
    expect(await screen.findByText('Adresa de e-mail nu este validă.')).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('Adresa de e-mail').getAttribute('aria-invalid')).toBe('true'));
  });
});
