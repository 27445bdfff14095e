import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { browser } from '@/shared/browser';
import { session } from '@/shared/session';
import { CONFIG, findH1, makeUser, mockApi, ok, renderApp } from './helpers';
import { t } from '../engine/render';

/** A new-PFA request at a step (index 0-9), as GET /api/registration/open answers it. */
function wizardRequest(step: string, index: number) {
  const id = (i: number) => ({ identifier: `requesting-company-step-${i}` });
  return {
    id: 1, registration_type: 2, step, status: 'in_progress', lost_reason: null, form_data: {}, profile: {}, media: {}, paid: false,
    created_at: '2026-11-22T10:00:00Z', mailing_address: null, status_timeline: [], variants: ['unaffiliated'],
    steps: { previous: index > 0 ? id(index - 1) : null, current: { identifier: step, index }, next: index < 9 ? id(index + 1) : null, total: 10 },
    partner: { id: 1, name: 'Standard', slug: 'neafiliat', is_unaffiliated: true, description: null, footnote: null, prices: [] },
  };
}

describe('404', () => {
  it('shows the exact copy with a link to the first page', async () => {
    mockApi();
    renderApp('/nu/exista');
    const h1 = await findH1();
    expect(h1.textContent).toBe('Această pagină a fost mutată sau nu există! Întoarce-te la prima pagină');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Întoarce-te la prima pagină' }).getAttribute('href')).toBe('/login'));
    await waitFor(() => expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1));
  });

  it.each([
    ['/infiintare-pfa/42', 2],
    ['/infiintare-pfa/abc', 2],
    ['/inregistrare/8', 1],
  ] as const)('an unknown address inside a flow (%s) shows the 404 copy in the wrapper, not a step', async (path, type) => {
    session.setUser(makeUser({ registration_type: type }));
    const api = mockApi({ 'GET /api/registration/open': ok(wizardRequest('requesting-company-step-4', 4)) });
    const app = renderApp(path);
    const h1 = await findH1();
    expect(h1.textContent).toBe('Această pagină a fost mutată sau nu există! Întoarce-te la prima pagină');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Ieșire din cont' })).toBeTruthy());
    expect(app.pathname()).toBe(path);
    expect(document.title).toContain('Pagina nu există');
    expect(api.apiCalls().filter((c) => c.path.includes('/registration/'))).toEqual([]);
  });

  it("another step's address (with a trailing slash) still lands on the current step, not a 404", async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    mockApi({ 'GET /api/registration/open': ok(wizardRequest('requesting-company-step-4', 4)) });
    const app = renderApp('/infiintare-pfa/9/');
    expect(await findH1(t('steps:civilStatus.title'))).toBeTruthy();
    await waitFor(() => expect(app.pathname()).toBe('/infiintare-pfa/4'));
  });
});

describe('guards', () => {
  it.each(['/inregistrare', '/infiintare-pfa/3', '/infiintare-pfa/status', '/inregistrare/plata', '/inregistrare/chestionar/info', '/logout'])(
    'sends a guest from %s to /login',
    async (path) => {
      mockApi();
      const { pathname } = renderApp(path);
      await waitFor(() => expect(pathname()).toBe('/login'));
      expect(await findH1('Bine ai revenit!')).toBeTruthy();
    },
  );

  it.each([
    [1, '/inregistrare'],
    [2, '/infiintare-pfa'],
  ] as const)('guest-only pages send a signed-in user of type %i to %s', async (type, target) => {
    session.setUser(makeUser({ registration_type: type }));
    mockApi();
    for (const path of ['/login', '/password/forgot', '/password/reset?url=x']) {
      const app = renderApp(path);
      await waitFor(() => expect(app.pathname()).toBe(target));
      app.unmount();
    }
  });

  it('home sends a guest to /register and a signed-in user to their flow', async () => {
    mockApi();
    const guest = renderApp('/');
    await waitFor(() => expect(guest.pathname()).toBe('/register'));
    expect(await findH1('Creează-ți contul Ghișeu')).toBeTruthy();
    guest.unmount();

    session.setUser(makeUser({ registration_type: 1 }));
    const signedIn = renderApp('/');
    await waitFor(() => expect(signedIn.pathname()).toBe('/inregistrare'));
  });

  it('sends a user who opens the other flow to their own', async () => {
    session.setUser(makeUser({ registration_type: 1 }));
    mockApi();
    const { pathname } = renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(pathname()).toBe('/inregistrare'));
    expect(await screen.findByText('Registrare PFA')).toBeTruthy();
  });

  it('lets a stopped user of either type see the questionnaire info page', async () => {
    session.setUser(makeUser({ registration_type: 2, stop_flow: true }));
    mockApi();
    const { pathname } = renderApp('/inregistrare/chestionar/info');
    expect(await findH1('Încă nu putem ține contabilitatea PFA-ului tău')).toBeTruthy();
    expect(pathname()).toBe('/inregistrare/chestionar/info');
  });

  it('leaves /auth and the e-mail pages open to a signed-in user', async () => {
    session.setUser(makeUser());
    mockApi();
    const auth = renderApp('/auth?source=a&callbackUrl=b');
    expect(await findH1('Bine ai revenit!')).toBeTruthy();
    expect(auth.pathname()).toBe('/auth');
    auth.unmount();
    renderApp('/email/verify-success/');
    expect(await findH1('Succes')).toBeTruthy();
  });
});

describe('flow wrappers', () => {
  it('shows the title, the Logout action, the progress bar filled by the wizard, and the current step', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    mockApi({ 'GET /api/registration/open': ok(wizardRequest('requesting-company-step-4', 4)) });
    const app = renderApp('/infiintare-pfa/7');
    expect(await screen.findByText('Înființare PFA')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Ieșire din cont' })).toBeTruthy());
    // The step guard of the wizard: a typed step URL lands on the server's current step.
    expect(await findH1(t('steps:civilStatus.title'))).toBeTruthy();
    await waitFor(() => expect(app.pathname()).toBe('/infiintare-pfa/4'));
    const progress = await screen.findByRole('progressbar', { name: /Progresul înregistrării/ });
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('50'));
  });

  it('does not put the payment page behind the step guard', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    mockApi({ 'GET /api/registration/open': ok(wizardRequest('requesting-company-step-4', 4)) });
    const app = renderApp('/infiintare-pfa/plata');
    expect(await findH1('Confirmăm plata')).toBeTruthy();
    expect(app.pathname()).toBe('/infiintare-pfa/plata');
  });

  it.each([
    ['/inregistrare/plata', 'Confirmăm plata', 'Registrare PFA', 1, t('steps:common.progress', { position: 4, total: 7 }), '57'],
    ['/infiintare-pfa/plata', 'Confirmăm plata', 'Înființare PFA', 2, t('steps:common.progress', { position: 10, total: 10 }), '100'],
  ] as const)('%s waits for the payment inside its flow wrapper, the bar at the step being paid for', async (path, title, flowTitle, type, step, percent) => {
    session.setUser(makeUser({ registration_type: type }));
    mockApi({ [type === 1 ? 'GET /api/registration/existing/open' : 'GET /api/registration/open']: ok(wizardRequest(type === 1 ? 'existing-company-step-4' : 'requesting-company-step-9', 3)) });
    renderApp(path);
    expect(await findH1(title)).toBeTruthy();
    await waitFor(() => expect(screen.getByText(flowTitle)).toBeTruthy());
    await waitFor(() => expect(screen.getByText(/Așteptăm confirmarea plății/)).toBeTruthy());
    // Back from the payment site the page loads anew: the bar is filled from the request, not left empty.
    const progress = await screen.findByRole('progressbar', { name: `Progresul înregistrării: ${step}` });
    expect(progress.getAttribute('aria-valuenow')).toBe(percent);
    expect(progress.getAttribute('aria-valuetext')).toBe(step);
  });

  it('logs out: posts /api/logout with the token, clears ALL storage, removes the support widget and goes home', async () => {
    session.setUser(makeUser({ access_token: 'secret-token', registration_type: 1 }));
    localStorage.setItem('something-else', '1');
    const api = mockApi({
      'GET /api/config': ok({ ...CONFIG, support_widget_url: 'https://widget.example/w.js' }),
      'POST /api/logout': ok(null, 'Te-ai deconectat.'),
    });
    const { user, pathname } = renderApp('/inregistrare');
    await waitFor(() => expect(document.getElementById('support-widget')).not.toBeNull());
    const script = document.getElementById('support-widget') as HTMLScriptElement;
    expect(script.src).toBe('https://widget.example/w.js');
    expect(script.async).toBe(true);
    const created = document.createElement('div');
    created.id = 'support-widget-frame';
    document.body.appendChild(created);

    await user.click(await screen.findByRole('button', { name: 'Ieșire din cont' }));
    await waitFor(() => expect(pathname()).toBe('/register'));
    const logoutCall = api.calls.find((c) => c.path === '/api/logout')!;
    expect(logoutCall.method).toBe('POST');
    expect(logoutCall.headers.Authorization).toBe('Bearer secret-token');
    expect(localStorage.length).toBe(0);
    expect(session.user()).toBeNull();
    expect(document.querySelector('[id^="support-widget"]')).toBeNull();
  });

  it('the /logout route logs out and goes home', async () => {
    session.setUser(makeUser());
    const api = mockApi({ 'POST /api/logout': ok(null) });
    const { pathname } = renderApp('/logout');
    await waitFor(() => expect(pathname()).toBe('/register'));
    expect(api.calls.some((c) => c.path === '/api/logout')).toBe(true);
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('does not load the support widget when no URL is configured', async () => {
    session.setUser(makeUser());
    mockApi();
    renderApp('/infiintare-pfa');
    await screen.findByText('Înființare PFA');
    expect(document.getElementById('support-widget')).toBeNull();
  });

  it('a 401 on an authenticated call clears the session and goes to /login', async () => {
    session.setUser(makeUser());
    mockApi({ 'GET /api/registration/open': { status: 401, body: { message: 'Sesiunea a expirat.', payload: null } } });
    const { pathname } = renderApp('/infiintare-pfa');
    await screen.findByText('Înființare PFA');
    const { api, isApiError } = await import('@/shared/api/client');
    let status = 0;
    await act(async () => {
      await api.get('/registration/open').catch((e) => {
        status = isApiError(e) ? e.status : -1;
      });
    });
    expect(status).toBe(401);
    await waitFor(() => expect(pathname()).toBe('/login'));
    expect(session.user()).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    // A toast (top end, 5 s) tells the user why.
    expect(await screen.findByText('Sesiunea ta a expirat. Te rugăm să intri din nou în cont.')).toBeTruthy();
  });
});

describe('unsubscribe', () => {
  it('an empty frontend_id goes home', async () => {
    mockApi();
    const { pathname } = renderApp('/unsubscribe');
    await waitFor(() => expect(pathname()).toBe('/register'));
  });

  it("posts the frontend_id with 'Oprește notificările' and shows the server message", async () => {
    const api = mockApi({ 'POST /api/unsubscribe': ok(null, 'Nu vei mai primi notificări de la noi.') });
    const { user } = renderApp('/unsubscribe/abc123');
    expect(await findH1('Dezabonare')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Oprește notificările' }));
    expect(await screen.findByText('Nu vei mai primi notificări de la noi.')).toBeTruthy();
    expect(api.apiCalls()[0].body).toEqual({ frontend_id: 'abc123' });
  });

  it('goes home when the server refuses', async () => {
    mockApi({ 'POST /api/unsubscribe': { status: 404, body: { message: 'Linkul de dezabonare nu este valid.', payload: null } } });
    const { user, pathname } = renderApp('/unsubscribe/gresit');
    await findH1('Dezabonare');
    await user.click(await screen.findByRole('button', { name: 'Oprește notificările' }));
    await waitFor(() => expect(pathname()).toBe('/register'));
  });
});

describe('e-mail pages', () => {
  it.each([
    ['/email/verify-success/', 'Succes', 3000],
    ['/email/already-verified/', 'Adresa de e-mail este deja confirmată', 5000],
  ] as const)('%s (%s) closes the window after %i ms', async (path, title, ms) => {
    mockApi();
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    const close = vi.spyOn(browser, 'close').mockImplementation(() => {});
    renderApp(path);
    expect(await findH1(title)).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/se va închide automat/)).toBeTruthy());
    await waitFor(() => expect(timeouts.mock.calls.some(([, delay]) => delay === ms)).toBe(true));
    expect(close).not.toHaveBeenCalled();
    const [callback] = timeouts.mock.calls.filter(([, delay]) => delay === ms).at(-1)!;
    (callback as () => void)();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
