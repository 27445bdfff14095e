/**
 * The staff session as the console reads it. Until the staff sign-in (branch `staff`) lands this
 * reads the token from localStorage `staff` ({ access_token }); it is replaced by the staff
 * session module when that branch is merged.
 */
export const STAFF_KEY = 'staff';

export function staffToken(): string | null {
  try {
    const raw = localStorage.getItem(STAFF_KEY);
    const parsed = raw ? (JSON.parse(raw) as { access_token?: unknown }) : null;
    return typeof parsed?.access_token === 'string' ? parsed.access_token : null;
  } catch {
    return null;
  }
}

export function staffUnauthorized(): void {
  if (typeof window !== 'undefined' && !window.location.pathname.startsWith('/staff/login')) {
    window.location.assign(`/staff/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
}
