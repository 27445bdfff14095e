import { useSyncExternalStore } from 'react';

/**
 * The staff session (issue 18), kept apart from the applicant's (`user` in src/shared/session.ts):
 * its own localStorage key, its own token, never sent on applicant calls (src/shared/api/client.ts
 * reads only `user`), and the applicant's token is never sent on staff calls (./api.ts reads only this).
 */
export const STAFF_SESSION_KEY = 'staff_session';

export type StaffRole = 'editor' | 'operator';

export interface StaffMember {
  id: number;
  email: string;
  role: StaffRole;
  created_at: string;
}

/** What `POST /api/staff/login` answers and this store keeps. */
export interface StaffSession {
  access_token: string;
  expires_at: string;
  staff: StaffMember;
}

/** Where each role works: operators on the dossiers, editors on the preview. */
export const STAFF_HOME: Record<StaffRole, string> = { operator: '/staff/dossiers', editor: '/staff/preview' };
export const STAFF_LOGIN = '/staff/login';
/** Where the sign-in leads when no `?next=` was given: the staff home, with the link to the role's page. */
export const STAFF_START = '/staff';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function isStaffSession(value: unknown): value is StaffSession {
  if (!value || typeof value !== 'object') return false;
  const s = value as Partial<StaffSession>;
  return (
    typeof s.access_token === 'string' &&
    s.access_token.length > 0 &&
    typeof s.expires_at === 'string' &&
    !!s.staff &&
    typeof s.staff.email === 'string' &&
    (s.staff.role === 'editor' || s.staff.role === 'operator')
  );
}

function load(): StaffSession | null {
  try {
    const raw = storage()?.getItem(STAFF_SESSION_KEY);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!isStaffSession(value)) return null;
    // Past its end the server refuses it anyway: treat it as signed out without asking.
    return new Date(value.expires_at).getTime() > Date.now() ? value : null;
  } catch {
    return null;
  }
}

let state: StaffSession | null | undefined;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export const staffSession = {
  get(): StaffSession | null {
    if (state === undefined) state = load();
    return state;
  },
  token(): string | null {
    return staffSession.get()?.access_token ?? null;
  },
  staff(): StaffMember | null {
    return staffSession.get()?.staff ?? null;
  },
  set(next: StaffSession): void {
    state = next;
    try {
      storage()?.setItem(STAFF_SESSION_KEY, JSON.stringify(next));
    } catch {
      // storage full or disabled: the session lives in memory
    }
    emit();
  },
  /** Updates the staff member (GET /api/staff/me), keeping the token. */
  setStaff(staff: StaffMember): void {
    const current = staffSession.get();
    if (current) staffSession.set({ ...current, staff });
  },
  /** Forgets the staff session only (the applicant's session, if any, stays). */
  clear(): void {
    state = null;
    try {
      storage()?.removeItem(STAFF_SESSION_KEY);
    } catch {
      // ignore
    }
    emit();
  },
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
  // Another tab signed in or out (or cleared all storage).
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === STAFF_SESSION_KEY) staffSession.reload();
  });
}

export function useStaffSession(): StaffSession | null {
  return useSyncExternalStore(staffSession.subscribe, staffSession.get, staffSession.get);
}
