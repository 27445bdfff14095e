import { useCallback } from 'react';
import { useNavigate, type NavigateFunction } from 'react-router';
import { api } from './api/client';
import type { RedirectTarget } from '@/core/session';
import { browser } from './browser';
import { session } from './session';
import { removeSupportWidget } from './support-widget';

/** Follows a sign-in redirect decision: another site through a full navigation, a route in the app. */
export function followRedirect(target: RedirectTarget, navigate: NavigateFunction): void {
  if (target.kind === 'external') browser.assign(target.url);
  else navigate(target.path, { replace: true });
}

/** Forgets everything about the user in this browser: session, ALL localStorage, the support widget. */
export function signOutLocally(): void {
  session.clear();
  removeSupportWidget();
}

/** Logout (spec 000 §2.3): POST /api/logout, clear state and storage, remove the widget, go home. */
export async function logout(): Promise<void> {
  if (session.token()) {
    try {
      await api.request('/logout', { method: 'POST', body: {}, ignoreUnauthorized: true });
    } catch {
      // The token is forgotten here either way; a failed revoke must not keep the user signed in.
    }
  }
  signOutLocally();
}

export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    navigate('/', { replace: true });
  }, [navigate]);
}
