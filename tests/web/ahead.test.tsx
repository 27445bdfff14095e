import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';

/**
 * src/shared/api/ahead.ts, the app's one way of fetching ahead: a step page's document asks for the
 * request and the dashboard-redirect check as its entry runs (before the app's scripts have arrived);
 * the app takes each answer once, for the same signed-in user, while fresh, and reads it as any call.
 */
const USER = { id: 7, access_token: 'jeton', registration_type: 2, email: 'ana@exemplu.ro' };
const SHELL = '<div id="shell" data-route="/infiintare-pfa/4" data-open="/api/registration/open" data-registration-type="2"></div><div id="root" hidden></div>';
const REQUEST = { id: 11, current_step_identifier: 'requesting-company-step-4' };

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Call = { url: string; headers: Record<string, string> };

/** fetch as the browser has it, answering from `answers` by path; the calls it got. */
function stubFetch(answers: Record<string, () => Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit = {}) => {
      calls.push({ url, headers: { ...(init.headers as Record<string, string>) } });
      const answer = answers[url.split('?')[0]];
      return answer ? Promise.resolve(answer()) : Promise.reject(new TypeError('Failed to fetch'));
    }),
  );
  return calls;
}

async function fresh() {
  vi.resetModules();
  return {
    early: await import('@/shared/api/ahead'),
    client: await import('@/shared/api/client'),
    session: (await import('@/shared/session')).session,
    language: await import('@/shared/language'),
  };
}

describe('the requests a step page asks for early', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/infiintare-pfa/4');
  });
  afterEach(() => {
    localStorage.clear();
    document.body.innerHTML = '';
    document.cookie = 'dashboard_redirect=; max-age=0; path=/';
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks for the request and the dashboard check with the very headers of the app’s own calls', async () => {
    const { early, client, session, language } = await fresh();
    session.setUser(USER as never);
    language.storeLanguage('en');
    document.body.innerHTML = SHELL;
    const calls = stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }), '/api/user/dashboard-redirect': () => json(200, { payload: false }) });

    early.askForStepShell(document.getElementById('shell')!, 1_000);
    expect(calls.map((c) => c.url)).toEqual(['/api/registration/open?timestamp=1000', '/api/user/dashboard-redirect', '/api/config']);

    await client.api.get('/api/registration/open');
    expect(calls[0].headers).toEqual(calls[3].headers);
    expect(calls[0].headers).toMatchObject({ Authorization: 'Bearer jeton', 'Accept-Language': 'en', 'X-Requested-With': 'XMLHttpRequest' });
    expect(calls[1].headers).toEqual(calls[3].headers);
    expect(calls[2].headers).toEqual(calls[3].headers);
  });

  it('asks for the applicant’s own data the shell names (data-ahead), each once, under its path', async () => {
    const { early, session } = await fresh();
    session.setUser(USER as never);
    document.cookie = 'dashboard_redirect=0; path=/';
    document.body.innerHTML =
      '<div id="shell" data-route="/infiintare-pfa/7" data-open="/api/registration/open" data-registration-type="2" data-ahead="/api/registration/overview"></div>';
    const calls = stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }), '/api/registration/overview': () => json(200, { payload: { codes: [] } }) });
    early.askForStepShell(document.getElementById('shell')!);
    expect(calls.map((c) => c.url.split('?')[0])).toEqual(['/api/registration/open', '/api/config', '/api/registration/overview']);
    expect(calls[2].headers).toEqual(calls[0].headers);
    expect(early.takeAhead('/api/registration/overview', 'jeton')).not.toBeNull();
  });

  it('asks for nothing for a guest, a user of the other flow, or a page without the shell’s request', async () => {
    const { early, session } = await fresh();
    const calls = stubFetch({});
    document.body.innerHTML = SHELL;
    early.askForStepShell(document.getElementById('shell')!);
    expect(calls).toEqual([]);

    session.setUser({ ...USER, registration_type: 1 } as never);
    early.askForStepShell(document.getElementById('shell')!);
    expect(calls).toEqual([]);

    session.setUser(USER as never);
    document.body.innerHTML = '<div id="shell" data-route="/infiintare-pfa/4"></div>';
    early.askForStepShell(document.getElementById('shell')!);
    expect(calls).toEqual([]);
  });

  it('does not ask for the dashboard check while the cookie dashboard_redirect=0 spares it (spec 000 §4.5)', async () => {
    const { early, session } = await fresh();
    session.setUser(USER as never);
    document.cookie = 'dashboard_redirect=0; path=/';
    document.body.innerHTML = SHELL;
    const calls = stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }) });
    early.askForStepShell(document.getElementById('shell')!);
    expect(calls.map((c) => c.url.split('?')[0])).toEqual(['/api/registration/open', '/api/config']);
  });

  it('hands an answer on once, only to the same signed-in user, and only while fresh', async () => {
    const { early, session } = await fresh();
    session.setUser(USER as never);
    document.body.innerHTML = SHELL;
    stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }), '/api/user/dashboard-redirect': () => json(200, { payload: false }) });

    early.askForStepShell(document.getElementById('shell')!, 1_000);
    expect(early.takeAhead('/api/registration/open', 'jeton', 1_000 + early.AHEAD_FRESH_MS)).not.toBeNull();
    expect(early.takeAhead('/api/registration/open', 'jeton', 1_000)).toBeNull();

    early.askForStepShell(document.getElementById('shell')!, 2_000);
    expect(early.takeAhead('/api/registration/open', 'another-token', 2_000)).toBeNull();
    expect(early.takeAhead('/api/registration/open', 'jeton', 2_000)).toBeNull();

    early.askForStepShell(document.getElementById('shell')!, 3_000);
    expect(early.takeAhead(early.DASHBOARD_REDIRECT_PATH, 'jeton', 3_001 + early.AHEAD_FRESH_MS)).toBeNull();
  });

  it('the app reads an early answer as any call: its payload, and a 401 signs the user out', async () => {
    const { early, client, session } = await fresh();
    session.setUser(USER as never);
    document.body.innerHTML = SHELL;
    stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }), '/api/user/dashboard-redirect': () => json(401, { message: 'Unauthenticated.' }) });
    const signedOut = vi.fn();
    client.setUnauthorizedHandler(signedOut);

    early.askForStepShell(document.getElementById('shell')!);
    // Both taken as they are on their way (a 401 that arrived before anyone took it is not kept: the app asks again).
    const open = client.api.receive(early.takeAhead('/api/registration/open', session.token())!);
    const failed = client.api.receive(early.takeAhead(early.DASHBOARD_REDIRECT_PATH, session.token())!);
    await expect(open).resolves.toEqual(REQUEST);
    await expect(failed).rejects.toMatchObject({ name: 'ApiError', status: 401, message: 'Unauthenticated.' });
    expect(signedOut).toHaveBeenCalledTimes(1);
    client.setUnauthorizedHandler(null);
  });

  it('the guard takes the early check even when that answer has set the cookie meanwhile, so its request is read to the end', async () => {
    const { early, session } = await fresh();
    session.setUser(USER as never);
    document.body.innerHTML = SHELL;
    let read = false;
    stubFetch({
      '/api/registration/open': () => json(200, { payload: REQUEST }),
      '/api/user/dashboard-redirect': () => {
        const response = json(200, { payload: false });
        const text = response.text.bind(response);
        response.text = () => ((read = true), text());
        return response;
      },
    });
    early.askForStepShell(document.getElementById('shell')!);
    // The server's "no" sets the cookie as the answer arrives, before the app's guard runs.
    document.cookie = 'dashboard_redirect=0; path=/';
    const { flowLoader } = await import('@/app/guards');
    await expect(flowLoader(2)()).resolves.toBeNull();
    expect(read).toBe(true);
  });

  it('lets go of an answer the app has not taken in time (its body, unread, would keep the request open)', async () => {
    vi.useFakeTimers();
    try {
      const { early, session } = await fresh();
      session.setUser(USER as never);
      document.body.innerHTML = SHELL;
      const cancelled: string[] = [];
      const answer = (path: string) => () => {
        const response = json(200, { payload: null });
        const cancel = response.body!.cancel.bind(response.body!);
        response.body!.cancel = (reason?: unknown) => (cancelled.push(path), cancel(reason));
        return response;
      };
      stubFetch({ '/api/registration/open': answer('open'), '/api/user/dashboard-redirect': answer('check') });
      early.askForStepShell(document.getElementById('shell')!);
      await vi.advanceTimersByTimeAsync(early.AHEAD_FRESH_MS);
      expect(cancelled.sort()).toEqual(['check', 'open']);
      expect(early.takeAhead('/api/registration/open', 'jeton')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the step page takes the early request instead of asking again, and the flow’s guard the early check', async () => {
    const { early, client, session } = await fresh();
    session.setUser(USER as never);
    document.body.innerHTML = SHELL;
    const calls = stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }), '/api/user/dashboard-redirect': () => json(200, { payload: true }) });
    early.askForStepShell(document.getElementById('shell')!);
    const get = vi.spyOn(client.api, 'get');

    await import('@/pages/flow/FlowStepsPage');
    const { flowLoader } = await import('@/app/guards');
    // The server says this user belongs on the dashboard now: the guard sends them there, from the early answer.
    const sent = await flowLoader(2)().catch((response: unknown) => response);
    expect(sent).toBeInstanceOf(Response);
    expect((sent as Response).headers.get('Location')).toBe('/dashboard');
    const asked = () => calls.map((c) => c.url.split('?')[0]).filter((url) => url === '/api/registration/open' || url === '/api/user/dashboard-redirect');
    expect(asked()).toEqual(['/api/registration/open', '/api/user/dashboard-redirect']);
    expect(get.mock.calls.map((c) => c[0])).not.toContain('/api/user/dashboard-redirect');
    // Taken: the next navigation asks the server again.
    await flowLoader(2)().catch(() => undefined);
    expect(asked()).toEqual(['/api/registration/open', '/api/user/dashboard-redirect', '/api/user/dashboard-redirect']);
  });

  it('the app’s settings (useConfig) take the early answer once; the next call asks the server', async () => {
    const { early, session } = await fresh();
    session.setUser(USER as never);
    document.cookie = 'dashboard_redirect=0; path=/';
    document.body.innerHTML = SHELL;
    const settings = { product_name: 'Ghișeu', support_widget_url: null };
    const calls = stubFetch({ '/api/registration/open': () => json(200, { payload: REQUEST }), '/api/config': () => json(200, { payload: settings }) });
    early.askForStepShell(document.getElementById('shell')!);
    const { preloadConfig, useConfig } = await import('@/shared/api/hooks');
    // As the app starts (src/main.tsx).
    preloadConfig(early.takeAhead(early.CONFIG_PATH, session.token())!);
    const { result } = renderHook(() => useConfig());
    await waitFor(() => expect(result.current.loaded).toBe(true));
    expect(result.current.config).toMatchObject(settings);
    expect(calls.filter((c) => c.url === '/api/config')).toHaveLength(1);
    expect(early.takeAhead(early.CONFIG_PATH, 'jeton')).toBeNull();
  });
});

describe('fetching ahead (askAhead, takeAhead): one rule for every answer', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('is asked once: a second ask of the same key, fresh and for the same user, sends nothing', async () => {
    const { early } = await fresh();
    const calls = stubFetch({ '/api/nomenclature/activity/index': () => json(200, { payload: [] }) });
    const first = early.askAhead('/api/nomenclature/activity/index?is_active=1', 'jeton', undefined, 1_000);
    const second = early.askAhead('/api/nomenclature/activity/index?is_active=1', 'jeton', undefined, 2_000);
    expect(second).toBe(first);
    expect(calls.map((c) => c.url)).toEqual(['/api/nomenclature/activity/index?is_active=1']);
    // Another user's ask is theirs.
    early.askAhead('/api/nomenclature/activity/index?is_active=1', 'other', undefined, 2_000);
    expect(calls).toHaveLength(2);
    expect(calls[1].headers.Authorization).toBe('Bearer other');
  });

  it('is taken once; the taker reads what was asked for', async () => {
    const { early, client } = await fresh();
    stubFetch({ '/api/registration/overview': () => json(200, { payload: { codes: [] } }) });
    early.askAhead('/api/registration/overview', 'jeton');
    const taken = early.takeAhead('/api/registration/overview', 'jeton');
    expect(taken).not.toBeNull();
    expect(early.takeAhead('/api/registration/overview', 'jeton')).toBeNull();
    await expect(client.api.receive(taken!)).resolves.toEqual({ codes: [] });
  });

  it('expires: not handed on once older than AHEAD_FRESH_MS, nor in another language than it was asked in', async () => {
    const { early, language } = await fresh();
    stubFetch({ '/api/registration/overview': () => json(200, { payload: null }) });
    early.askAhead('/api/registration/overview', 'jeton', undefined, 1_000);
    expect(early.takeAhead('/api/registration/overview', 'jeton', 1_001 + early.AHEAD_FRESH_MS)).toBeNull();

    early.askAhead('/api/registration/overview', 'jeton');
    language.storeLanguage('en');
    expect(early.takeAhead('/api/registration/overview', 'jeton')).toBeNull();
  });

  it('expires: an answer not taken in time is let go, and the next ask sends again', async () => {
    vi.useFakeTimers();
    const { early } = await fresh();
    const calls = stubFetch({ '/api/registration/overview': () => json(200, { payload: null }) });
    early.askAhead('/api/registration/overview', 'jeton');
    await vi.advanceTimersByTimeAsync(early.AHEAD_FRESH_MS);
    expect(early.takeAhead('/api/registration/overview', 'jeton')).toBeNull();
    early.askAhead('/api/registration/overview', 'jeton');
    expect(calls).toHaveLength(2);
  });

  it('a failed request is not kept: no answer, or an answer other than 2xx; the next ask sends again', async () => {
    const { early } = await fresh();
    let answers = 0;
    const calls = stubFetch({ '/api/veriff/get-last-session': () => (++answers === 2 ? json(503, { message: 'Serviciu indisponibil.', payload: null }) : json(200, { payload: null })) });
    // No answer at all (offline).
    await early.askAhead('/api/nomenclature/marital-status/index', 'jeton').catch(() => undefined);
    expect(early.takeAhead('/api/nomenclature/marital-status/index', 'jeton')).toBeNull();

    await early.askAhead('/api/veriff/get-last-session', 'jeton');
    expect(early.takeAhead('/api/veriff/get-last-session', 'jeton')).not.toBeNull();
    await early.askAhead('/api/veriff/get-last-session', 'jeton');
    expect(early.takeAhead('/api/veriff/get-last-session', 'jeton')).toBeNull();
    await early.askAhead('/api/veriff/get-last-session', 'jeton');
    expect(calls.map((c) => c.url)).toEqual(['/api/nomenclature/marital-status/index', '/api/veriff/get-last-session', '/api/veriff/get-last-session', '/api/veriff/get-last-session']);
  });
});
