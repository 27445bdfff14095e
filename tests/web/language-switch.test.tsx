import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import common from '../../locales/en/common.json';
import auth from '../../locales/en/auth.json';
import register from '../../locales/en/register.json';
import { session } from '@/shared/session';
import { LANGUAGE_KEY, storedLanguage } from '@/shared/language';
import { createTranslate } from '@/guest/translate';
import { i18n as guestI18n, useTranslation as useGuestTranslation } from '@/guest/i18n';
import { api } from '@/shared/api/client';
import { findH1, makeUser, mockApi, ok, renderApp } from './helpers';

/** Issue 18: the language switch, the stored choice, Accept-Language, and the guest pages' English. */

beforeEach(() => {
  localStorage.clear();
  session.clear();
  document.documentElement.lang = 'ro';
});
afterEach(() => localStorage.clear());

describe('the language switch', () => {
  it('on /login: "English" turns the page English, sets <html lang> and stores the choice; "Română" turns it back', async () => {
    mockApi();
    const { user } = renderApp('/login');
    await findH1('Bine ai revenit!');
    await user.click(screen.getByRole('button', { name: 'English' }));
    await findH1('Welcome back!');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Română' }).getAttribute('lang')).toBe('ro');
    await user.click(screen.getByRole('button', { name: 'Română' }));
    await findH1('Bine ai revenit!');
    expect(document.documentElement.lang).toBe('ro');
    expect(storedLanguage()).toBe('ro');
  });

  it('signed in (the dashboard’s header): the server is told (PUT /api/user/language)', async () => {
    session.setUser(makeUser());
    const { apiCalls } = mockApi({ 'PUT /api/user/language': ok({ language: 'en' }) });
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: 'English' }));
    await waitFor(() => expect(apiCalls().find((c) => c.path === '/api/user/language')?.body).toEqual({ language: 'en' }));
    expect(apiCalls().find((c) => c.path === '/api/user/language')?.method).toBe('PUT');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Română' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('a guest is not sent to the server: only the browser keeps the choice', async () => {
    const { apiCalls } = mockApi();
    const { user } = renderApp('/register');
    await user.click(await screen.findByRole('button', { name: 'English' }));
    await findH1('Create your Ghișeu account');
    expect(apiCalls().filter((c) => c.path === '/api/user/language')).toEqual([]);
  });
});

describe('the stored choice', () => {
  it('survives a sign-in or sign-out (session.clear), and is sent as Accept-Language', async () => {
    localStorage.setItem(LANGUAGE_KEY, 'en');
    localStorage.setItem('other', 'x');
    session.clear();
    expect(localStorage.getItem('other')).toBeNull();
    expect(storedLanguage()).toBe('en');
    const { calls } = mockApi({ 'GET /api/ping': ok(null) });
    await api.get('/ping');
    expect(calls.at(-1)?.headers['Accept-Language']).toBe('en');
    localStorage.removeItem(LANGUAGE_KEY);
    await api.get('/ping');
    expect(calls.at(-1)?.headers['Accept-Language']).toBe('ro');
  });

  it('anything but ro or en stored counts as Romanian', () => {
    localStorage.setItem(LANGUAGE_KEY, 'fr');
    expect(storedLanguage()).toBe('ro');
  });
});

describe('the guest pages’ English (src/guest/i18n.ts)', () => {
  it('changeLanguage("en") loads the English copy and re-renders; back to Romanian', async () => {
    const { result } = renderHook(() => useGuestTranslation(['auth', 'common']));
    expect(result.current.t('login.title')).toBe('Bine ai revenit!');
    await act(() => guestI18n.changeLanguage('en'));
    expect(result.current.t('login.title')).toBe('Welcome back!');
    expect(result.current.t('common:skipToContent')).toBe('Skip to content');
    expect(result.current.i18n.resolvedLanguage).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    await act(() => guestI18n.changeLanguage('ro'));
    expect(result.current.t('login.title')).toBe('Bine ai revenit!');
  });

  it('answers as i18next for every English key of the guest namespaces', async () => {
    const resources = { common, auth, register };
    const instance = i18next.createInstance();
    await instance.init({ lng: 'en', ns: Object.keys(resources), resources: { en: resources }, interpolation: { escapeValue: false }, returnNull: false });
    const leaves = (tree: unknown, prefix = ''): [string, string][] =>
      typeof tree === 'string' ? [[prefix, tree]] : tree && typeof tree === 'object' ? Object.entries(tree).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k)) : [];
    for (const ns of Object.keys(resources) as (keyof typeof resources)[]) {
      const t = createTranslate(resources, ns);
      const ref = instance.getFixedT('en', ns);
      for (const [key, text] of leaves(resources[ns])) {
        const vars: Record<string, unknown> = { product: 'Ghișeu', title: 'Title' };
        for (const m of text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) vars[m[1]] = m[1] === 'position' ? 2 : `«${m[1]}»`;
        expect(t(key, vars)).toBe(ref(key, vars));
      }
    }
  });
});
