import { staffSession } from '@/pages/staff/session';
import { ok, type MockAnswer } from './helpers';

export const OPERATOR = { id: 3, email: 'operator@ghiseu.ro', role: 'operator' as const, created_at: '2026-11-25T08:00:00Z' };

/** Signs an operator in for a web test: the staff session in localStorage `staff_session` (token `staff-tok`). */
export function signInStaff(): void {
  localStorage.setItem('staff_session', JSON.stringify({ access_token: 'staff-tok', expires_at: new Date(Date.now() + 3_600_000).toISOString(), staff: OPERATOR }));
  staffSession.reload();
}

/** What the staff layout's loader asks (GET /api/staff/me) for the signed-in operator. */
export const STAFF_ME: Record<string, MockAnswer> = { 'GET /api/staff/me': ok(OPERATOR) };
