import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { browser } from '@/shared/browser';
import { session } from '@/shared/session';
import { findH1, invalid, makeUser, mockApi, ok, renderApp } from './helpers';

const WRONG = 'Datele de autentificare sunt incorecte.';

/** matchMedia as a screen `width` px wide sees it (min-width queries in px or rem); gives the old one back. */
function matchWidth(width: number): () => void {
  const original = window.matchMedia;
  window.matchMedia = ((query: string) => {
    const min = /min-width:\s*([\d.]+)(px|rem|em)/.exec(query);
    const matches = min ? width >= Number(min[1]) * (min[2] === 'px' ? 1 : 16) : false;
    return { matches, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false };
  }) as typeof window.matchMedia;
  return () => {
    window.matchMedia = original;
  };
}

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], email = 'ana@example.ro', password = 'secret1') {
  await user.type(await screen.findByLabelText('Adresa de e-mail'), email);
  await user.type(await screen.findByLabelText('Parola'), password);
  await user.click(await screen.findByRole('button', { name: 'Intră în cont' }));
}

describe('login page', () => {
  it('shows the welcome title, the fields, the links and, on a wide screen, the banner slider', async () => {
    mockApi();
    const restore = matchWidth(1280);
    try {
      renderApp('/login');
      expect((await findH1()).textContent).toBe('Bine ai revenit!');
      await waitFor(() => expect(screen.getByLabelText('Adresa de e-mail').getAttribute('type')).toBe('email'));
      const password = await screen.findByLabelText('Parola');
      expect(password.getAttribute('type')).toBe('password');
      await waitFor(() => expect(screen.getByRole('link', { name: 'Ai uitat parola?' }).getAttribute('href')).toBe('/password/forgot'));
      await waitFor(() => expect(screen.getByRole('link', { name: 'Creează-ți unul acum' }).getAttribute('href')).toBe('/register'));
      // jsdom applies no media query to the CSS (the panel's `display: none` below lg), so query hidden elements too.
      const slider = await screen.findByRole('region', { name: 'Ce poți face cu Ghișeu', hidden: true });
      await waitFor(() => expect(within(slider).getAllByRole('group', { hidden: true })).toHaveLength(3));
      expect(within(slider).queryByRole('button', { name: /următor|anterior|next|prev/i, hidden: true })).toBeNull();
      await waitFor(() => expect(within(slider).getAllByRole('button', { name: /Arată diapozitivul/, hidden: true })).toHaveLength(3));
    } finally {
      restore();
    }
  });

  it('on a phone, neither renders the banner slider nor runs its autoplay', async () => {
    mockApi();
    const restore = matchWidth(360);
    try {
      renderApp('/login');
      await findH1();
      await screen.findByRole('button', { name: 'Intră în cont' });
      expect(screen.queryByRole('region', { name: 'Ce poți face cu Ghișeu', hidden: true })).toBeNull();
    } finally {
      restore();
    }
  });

  it('toggles the password visibility with an accessible button', async () => {
    mockApi();
    const { user } = renderApp('/login');
    await findH1();
    const password = await screen.findByLabelText('Parola');
    await user.click(await screen.findByRole('button', { name: 'Arată parola' }));
    expect(password.getAttribute('type')).toBe('text');
    await user.click(await screen.findByRole('button', { name: 'Ascunde parola' }));
    expect(password.getAttribute('type')).toBe('password');
  });

  it('shows 422 field errors under their field, focuses it, flashes the message, and clears the error on typing', async () => {
    const api = mockApi({ 'POST /api/login': invalid({ email: [WRONG, 'al doilea mesaj'] }, WRONG) });
    const { user } = renderApp('/login');
    await findH1();
    await fillAndSubmit(user);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(WRONG);

    const email = await screen.findByLabelText('Adresa de e-mail');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    // The first message only, linked to the input (aria-describedby) and inside its field.
    const describedBy = (email.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id));
    const errorText = describedBy.find((el) => el?.textContent === WRONG);
    expect(errorText).toBeTruthy();
    expect(document.body.textContent).not.toContain('al doilea mesaj');
    expect(document.activeElement).toBe(email);

    const submit = await screen.findByRole('button', { name: 'Intră în cont' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(api.apiCalls()).toHaveLength(1);
    expect(api.apiCalls()[0].body).toEqual({ email: 'ana@example.ro', password: 'secret1' });

    await user.type(email, 'x');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).not.toBe('true'));
    expect(describedBy.find((el) => el?.isConnected && el.textContent === WRONG)).toBeFalsy();
    expect(submit.disabled).toBe(false);
  });

  it('re-enables submit when only the password is corrected after a failed credentials check', async () => {
    mockApi({ 'POST /api/login': invalid({ email: [WRONG] }, WRONG) });
    const { user } = renderApp('/login');
    await findH1();
    await fillAndSubmit(user);
    const email = await screen.findByLabelText('Adresa de e-mail');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    await user.type(await screen.findByLabelText('Parola'), '2');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).not.toBe('true'));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Intră în cont' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('keeps a per-field validation error when another field is edited', async () => {
    mockApi({ 'POST /api/login': invalid({ email: ['Adresa de e-mail nu este validă.'] }) });
    const { user } = renderApp('/login');
    await findH1();
    await fillAndSubmit(user, 'nu-e-email');
    const email = await screen.findByLabelText('Adresa de e-mail');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    await user.type(await screen.findByLabelText('Parola'), '2');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Intră în cont' }) as HTMLButtonElement).disabled).toBe(true));
  });

  it('disables the submit button while the request is in flight', async () => {
    let release!: () => void;
    mockApi({
      'POST /api/login': () =>
        new Promise((resolve) => {
          release = () => resolve(ok(makeUser({ registration_type: 2 })));
        }),
    });
    const { user, pathname } = renderApp('/login');
    await findH1();
    await fillAndSubmit(user);
    const submit = await screen.findByRole('button', { name: 'Intră în cont' }) as HTMLButtonElement;
    await waitFor(() => expect(submit.disabled).toBe(true));
    release();
    await waitFor(() => expect(pathname()).toBe('/infiintare-pfa'));
  });

  it('clears stored state before posting, then stores the user and pushes the login event', async () => {
    localStorage.setItem('leftover', 'x');
    mockApi({
      'POST /api/login': () => {
        expect(localStorage.getItem('leftover')).toBeNull();
        return ok(makeUser({ id: 42, registration_type: 1 }));
      },
    });
    const { user, pathname } = renderApp('/login');
    await findH1();
    await fillAndSubmit(user);
    await waitFor(() => expect(pathname()).toBe('/inregistrare'));
    expect(JSON.parse(localStorage.getItem('user')!).id).toBe(42);
    expect(session.user()?.access_token).toBe('tok-123');
    expect(window.dataLayer).toContainEqual({ event: 'login', user_id: 42 });
  });

  describe('redirect order: dashboard, then stop_flow, then registration type', () => {
    it('dashboard_redirect wins over stop_flow: the browser leaves for the dashboard SSO', async () => {
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
      mockApi({ 'POST /api/login': ok(makeUser({ dashboard_redirect: true, stop_flow: true, access_token: 'abc' })) });
      const { user, pathname } = renderApp('/login');
      await findH1();
      await fillAndSubmit(user);
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://dashboard.example/sso/abc'));
      expect(pathname()).toBe('/login');
    });

    it('stop_flow wins over the registration type', async () => {
      const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
      mockApi({ 'POST /api/login': ok(makeUser({ stop_flow: true, registration_type: 2 })) });
      const { user, pathname } = renderApp('/login');
      await findH1();
      await fillAndSubmit(user);
      await waitFor(() => expect(pathname()).toBe('/inregistrare/chestionar/info'));
      expect(assign).not.toHaveBeenCalled();
      expect(await findH1('Încă nu putem ține contabilitatea PFA-ului tău')).toBeTruthy();
    });

    it.each([
      [1, '/inregistrare', 'Registrare PFA'],
      [2, '/infiintare-pfa', 'Înființare PFA'],
    ] as const)('registration type %i goes to %s', async (type, path, title) => {
      mockApi({ 'POST /api/login': ok(makeUser({ registration_type: type })) });
      const { user, pathname } = renderApp('/login');
      await findH1();
      await fillAndSubmit(user);
      await waitFor(() => expect(pathname()).toBe(path));
      expect(await screen.findByText(title)).toBeTruthy();
    });
  });

  it('shows a non-validation failure (rate limit) as a flash error without field errors', async () => {
    mockApi({ 'POST /api/login': { status: 429, body: { message: 'Prea multe încercări de autentificare.', payload: { retry_after: 60 } } } });
    const { user } = renderApp('/login');
    await findH1();
    await fillAndSubmit(user);
    expect((await screen.findByRole('alert')).textContent).toContain('Prea multe încercări de autentificare.');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Intră în cont' }) as HTMLButtonElement).disabled).toBe(false));
  });
});

describe('/auth (sign-in for other applications)', () => {
  it('posts source and callbackUrl and goes to the redirect_url', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const api = mockApi({
      'POST /api/auth': ok({ id_token: 'id', access_token: 'acc', redirect_url: 'https://app.example/cb?id_token=id&access_token=acc' }),
    });
    const { user } = renderApp('/auth?source=facturare&callbackUrl=https%3A%2F%2Fapp.example%2Fcb');
    await findH1('Bine ai revenit!');
    await fillAndSubmit(user);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://app.example/cb?id_token=id&access_token=acc'));
    expect(api.apiCalls()[0].body).toEqual({ email: 'ana@example.ro', password: 'secret1', source: 'facturare', callbackUrl: 'https://app.example/cb' });
  });

  it('shows the callbackUrl error and never redirects', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const message = 'Adresa de întoarcere nu este permisă.';
    mockApi({ 'POST /api/auth': invalid({ callbackUrl: [message] }, message) });
    const { user } = renderApp('/auth?source=x&callbackUrl=https%3A%2F%2Fevil.example');
    await findH1();
    await fillAndSubmit(user);
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(assign).not.toHaveBeenCalled();
    // An error on a field that is not on the form does not block a new attempt.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Intră în cont' }) as HTMLButtonElement).disabled).toBe(false));
  });
});

describe('/auto-login', () => {
  it('posts the token, stores the user and follows the echoed redirect route', async () => {
    const api = mockApi({ 'POST /api/auto-login': ok({ ...makeUser({ registration_type: 2 }), redirect: 'collect-user-profile-step' }) });
    const { pathname } = renderApp('/auto-login?token=t1&redirect=collect-user-profile-step');
    await waitFor(() => expect(pathname()).toBe('/infiintare-pfa/1'));
    expect(api.apiCalls().filter((c) => c.path === '/api/auto-login')).toHaveLength(1);
    expect(api.apiCalls()[0].body).toEqual({ token: 't1' });
    expect(session.user()?.id).toBe(7);
    // The identity step's page (the handed-over phone) asks for the last identity session with its request.
    await waitFor(() => expect(api.apiCalls().filter((c) => c.path === '/api/veriff/get-last-session')).toHaveLength(1));
  });

  it('goes silently home when the token is refused', async () => {
    mockApi({ 'POST /api/auto-login': invalid({ token: ['expirat'] }, 'expirat') });
    const { pathname } = renderApp('/auto-login?token=bad');
    await waitFor(() => expect(pathname()).toBe('/register'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(session.user()).toBeNull();
  });
});
