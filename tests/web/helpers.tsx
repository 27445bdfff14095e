import { afterEach, beforeEach, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createI18n } from '@/shared/i18n';
import { AppProviders } from '@/shared/providers';
import { routes } from '@/app/routes';
import { session } from '@/shared/session';
import { setUnauthorizedHandler } from '@/shared/api/client';
import type { PublicConfig, SessionUser } from '@/core/api-types';

export const CONFIG: PublicConfig = {
  product_name: 'Ghișeu',
  product_slug: 'ghiseu',
  dashboard_url: 'https://dashboard.example',
  support_widget_url: null,
  site_url: 'https://ghiseu.ro',
  contact_email: 'contact@ghiseu.ro',
  contact_phone: null,
  logo_url: '/logo.svg',
  terms_url: '/termeni',
  privacy_url: '/confidentialitate',
};

export interface RecordedCall {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: any;
}

export interface MockAnswer {
  status?: number;
  body?: unknown;
}

type Handler = (call: RecordedCall) => MockAnswer | Promise<MockAnswer>;

/**
 * Replaces `fetch` for one test. `handlers` maps "METHOD /api/path" (no query) to an answer or
 * a function; GET /api/config answers CONFIG unless overridden; anything else is a 404.
 */
export function mockApi(handlers: Record<string, MockAnswer | Handler> = {}) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const parsed = new URL(url, 'http://localhost:3000');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      url,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {})),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    const key = `${method} ${parsed.pathname}`;
    const handler = handlers[key] ?? (key === 'GET /api/config' ? { body: { message: '', payload: CONFIG } } : undefined);
    const answer = handler === undefined ? { status: 404, body: { message: 'Resursa nu a fost găsită.', payload: null } } : typeof handler === 'function' ? await handler(call) : handler;
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    /** Calls other than the config read. */
    apiCalls: () => calls.filter((c) => c.path !== '/api/config'),
  };
}

export function ok<T>(payload: T, message = ''): MockAnswer {
  return { status: 200, body: { message, payload } };
}

export function invalid(fields: Record<string, string[]>, message = 'Datele trimise nu sunt valide.'): MockAnswer {
  return { status: 422, body: { message, payload: fields } };
}

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    access_token: 'tok-123',
    dashboard_redirect: false,
    email: 'ana@example.ro',
    phone: '0712345678',
    registration_type: 2,
    stop_flow: false,
    user_source: [],
    ...overrides,
  };
}

/** Renders the whole app (providers, the real route table) at `path` in a memory router. */
export function renderApp(path: string) {
  const i18n = createI18n();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const utils = render(
    <AppProviders i18n={i18n} swr={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, user, pathname: () => router.state.location.pathname };
}

/** Waits for a page's h1. */
export function findH1(name?: string | RegExp) {
  return screen.findByRole('heading', { level: 1, ...(name ? { name } : {}) });
}

export function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

// Every test starts signed out, with empty storage, cookies and dataLayer.
beforeEach(() => {
  localStorage.clear();
  session.reload();
  clearCookies();
  window.dataLayer = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setUnauthorizedHandler(null);
  document.querySelectorAll('[id^="support-widget"]').forEach((el) => el.remove());
});
