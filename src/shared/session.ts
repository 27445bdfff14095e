import { useSyncExternalStore } from 'react';
import { isRegistrationType, type RegistrationTypeValue } from '@/core/registration';
import type { SessionUser } from '@/core/session';
import { LANGUAGE_KEY } from './language';

/** localStorage keys (spec 000 §3: the user session and the registration state are persisted). */
export const USER_KEY = 'user';
export const REGISTRATION_KEY = 'registration';

export interface RegistrationState {
  /** The type chosen on the register type-selection page (or the signed-in user's). */
  type: RegistrationTypeValue | null;
}

export interface SessionState {
  user: SessionUser | null;
  registration: RegistrationState;
}

const EMPTY: SessionState = { user: null, registration: { type: null } };

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy mode): the session lives in memory only
  }
}

function readJson(key: string): unknown {
  try {
    const raw = storage()?.getItem(key);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

function isSessionUser(value: unknown): value is SessionUser {
  if (!value || typeof value !== 'object') return false;
  const u = value as Partial<SessionUser>;
  return typeof u.access_token === 'string' && u.access_token.length > 0 && typeof u.id === 'number' && isRegistrationType(u.registration_type);
}

function load(): SessionState {
  const user = readJson(USER_KEY);
  const registration = readJson(REGISTRATION_KEY) as Partial<RegistrationState> | null;
  const validUser = isSessionUser(user) ? user : null;
  const type = isRegistrationType(registration?.type) ? registration.type : (validUser?.registration_type ?? null);
  return { user: validUser, registration: { type } };
}

let state: SessionState | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function write(next: SessionState) {
  state = next;
  const s = storage();
  try {
    if (next.user) s?.setItem(USER_KEY, JSON.stringify(next.user));
    else s?.removeItem(USER_KEY);
    if (next.registration.type) s?.setItem(REGISTRATION_KEY, JSON.stringify(next.registration));
    else s?.removeItem(REGISTRATION_KEY);
  } catch {
    // quota or disabled storage: keep the in-memory state
  }
  emit();
}

/** The session store: the signed-in user and the registration state, mirrored in localStorage. */
export const session = {
  get(): SessionState {
    if (!state) state = load();
    return state;
  },
  user(): SessionUser | null {
    return session.get().user;
  },
  token(): string | null {
    return session.get().user?.access_token ?? null;
  },
  setUser(user: SessionUser): void {
    write({ user, registration: { ...session.get().registration, type: user.registration_type } });
  },
  setRegistrationType(type: RegistrationTypeValue): void {
    write({ ...session.get(), registration: { ...session.get().registration, type } });
  },
  /**
   * Forgets the user and the registration state and clears ALL of localStorage (login, logout), but
   * the language chosen on this device (issue 18: the choice survives a sign-in and a sign-out).
   */
  clear(): void {
    try {
      const language = storage()?.getItem(LANGUAGE_KEY);
      storage()?.clear();
      if (language) storage()?.setItem(LANGUAGE_KEY, language);
    } catch {
      // ignore
    }
    state = { ...EMPTY, registration: { type: null } };
    emit();
  },
  /** Re-reads localStorage (another tab signed in or out). */
  reload(): void {
    state = load();
    emit();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === USER_KEY || event.key === REGISTRATION_KEY) session.reload();
  });
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
