import { describe, expect, it, vi } from 'vitest';
import { api, apiUrl, ApiError, request, setUnauthorizedHandler } from '@/shared/api/client';
import { session } from '@/shared/session';
import { trackedCookies, referralCode } from '@/shared/cookies';
import { makeUser, mockApi, ok } from './helpers';

describe('api client', () => {
  it('prefixes /api, keeps /api/ paths and adds the query', () => {
    expect(apiUrl('/login')).toBe('/api/login');
    expect(apiUrl('/api/registration/open')).toBe('/api/registration/open');
    expect(apiUrl('/partner/index', { selected_partner: 'icredit', empty: '' })).toBe('/api/partner/index?selected_partner=icredit');
    expect(() => apiUrl('https://evil.example/x')).toThrow();
    expect(() => apiUrl('//evil.example/x')).toThrow();
  });

  it('always sends X-Requested-With, JSON, and the bearer token only when signed in; unwraps the payload', async () => {
    const calls = mockApi({ 'POST /api/thing': ok({ a: 1 }, 'gata') }).calls;
    expect(await api.post('/thing', { x: 1 })).toEqual({ a: 1 });
    expect(calls[0].headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(calls[0].headers['Content-Type']).toBe('application/json');
    expect(calls[0].headers.Authorization).toBeUndefined();
    expect(calls[0].body).toEqual({ x: 1 });

    session.setUser(makeUser({ access_token: 'abc' }));
    expect(await request('/thing', { method: 'POST', body: {} })).toEqual({ payload: { a: 1 }, message: 'gata' });
    expect(calls[1].headers.Authorization).toBe('Bearer abc');
  });

  it('throws an ApiError with fieldErrors and message on 422', async () => {
    mockApi({ 'POST /api/login': { status: 422, body: { message: 'Datele de autentificare sunt incorecte.', payload: { email: ['Datele de autentificare sunt incorecte.'] } } } });
    const error = (await api.post('/login', {}).then(() => null, (e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.message).toBe('Datele de autentificare sunt incorecte.');
    expect(error.fieldErrors).toEqual({ email: ['Datele de autentificare sunt incorecte.'] });
  });

  it('runs the 401 handler only for authenticated calls', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockApi({ 'GET /api/me': { status: 401, body: { message: 'Sesiunea a expirat.', payload: null } } });
    await api.get('/me').catch(() => {});
    expect(handler).not.toHaveBeenCalled();
    session.setUser(makeUser());
    await api.get('/me').catch(() => {});
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("hands a 401 answered before any handler was set to the next handler (a page's first call can beat the app root)", async () => {
    setUnauthorizedHandler(null);
    session.setUser(makeUser());
    mockApi({ 'GET /api/registration/open': { status: 401, body: { message: 'Sesiunea a expirat.', payload: null } } });
    await api.get('/registration/open').catch(() => {});
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    expect(handler).toHaveBeenCalledTimes(1);
    // Handed over once: the next handler set is not called again for it.
    const next = vi.fn();
    setUnauthorizedHandler(next);
    expect(next).not.toHaveBeenCalled();
    setUnauthorizedHandler(null);
  });

  it('reports an unreachable server as status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const error = (await api.get('/config').then(() => null, (e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
  });
});

describe('tracked cookies', () => {
  it('keeps referral, utm_*, the product-slug user-source cookies and _ga; nothing else', () => {
    const cookies = 'a=1; utm_medium=cpc; referral=R1; acme_last_source=x; ghiseu_last_source=y; _ga=GA1; _gid=2; acme_source_path=%2Fpfa';
    expect(trackedCookies(cookies, 'acme')).toEqual([
      { key: 'utm_medium', value: 'cpc' },
      { key: 'referral', value: 'R1' },
      { key: 'acme_last_source', value: 'x' },
      { key: '_ga', value: 'GA1' },
      { key: 'acme_source_path', value: '/pfa' },
    ]);
  });

  it('reads the referral code from referral_code, then ref, then the cookie', () => {
    expect(referralCode(new URLSearchParams('referral_code=A&ref=B'), 'referral=C')).toBe('A');
    expect(referralCode(new URLSearchParams('ref=B'), 'referral=C')).toBe('B');
    expect(referralCode(new URLSearchParams(''), 'referral=C')).toBe('C');
    expect(referralCode(new URLSearchParams(''), '')).toBeNull();
  });
});
