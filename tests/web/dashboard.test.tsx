import { describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { browser } from '@/shared/browser';
import { session } from '@/shared/session';
import { CONFIG, findH1, makeUser, mockApi, ok, renderApp } from './helpers';

describe('/dashboard: the hand-over to the dashboard application', () => {
  it('leaves for {DASHBOARD_URL}/sso/{token} and remembers that this user goes there from now on', async () => {
    session.setUser(makeUser({ registration_type: 1, access_token: 'tok-9' }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    mockApi();
    renderApp('/dashboard');
    expect(await findH1('Te ducem la contul tău…')).toBeTruthy();
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CONFIG.dashboard_url}/sso/tok-9`));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(session.user()?.dashboard_redirect).toBe(true);
  });

  it('is for signed-in users only', async () => {
    mockApi();
    const app = renderApp('/dashboard');
    await waitFor(() => expect(app.pathname()).toBe('/login'));
  });

  it('a flow asks the server first (spec 000 §4.5): a user it hands over goes to the dashboard', async () => {
    session.setUser(makeUser({ registration_type: 2, access_token: 'tok-5' }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    mockApi({ 'GET /api/user/dashboard-redirect': ok(true) });
    const app = renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${CONFIG.dashboard_url}/sso/tok-5`));
    expect(app.pathname()).toBe('/dashboard');
  });

  it('while the cookie dashboard_redirect=0 lives, the flow opens without asking', async () => {
    session.setUser(makeUser({ registration_type: 2 }));
    document.cookie = 'dashboard_redirect=0; path=/';
    const api = mockApi({ 'GET /api/registration/open': { status: 500, body: { message: 'x', payload: null } } });
    const app = renderApp('/infiintare-pfa/status');
    await waitFor(() => expect(app.pathname()).toBe('/infiintare-pfa/status'));
    await waitFor(() => expect(api.apiCalls().some((c) => c.path === '/api/registration/open')).toBe(true));
    expect(api.apiCalls().some((c) => c.path === '/api/user/dashboard-redirect')).toBe(false);
  });
});
