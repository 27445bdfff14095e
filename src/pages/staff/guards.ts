import { redirect } from 'react-router';
import { isApiError } from '@/shared/api/client';
import { staffApi } from './api';
import { STAFF_LOGIN, staffSession, type StaffMember, type StaffRole } from './session';

/** `/staff/login?next=<where the visitor was going>`. */
export function loginRedirect(url: string) {
  const { pathname, search } = new URL(url);
  return redirect(`${STAFF_LOGIN}?next=${encodeURIComponent(pathname + search)}`);
}

/**
 * The loader of the staff layout (every /staff page but the login): a visitor without a staff
 * session goes to /staff/login; with one, the server confirms it (GET /api/staff/me: role changes
 * and revoked sessions count). An applicant's session is no staff session.
 */
export async function staffLoader({ request }: { request: Request }): Promise<StaffMember> {
  if (!staffSession.token()) throw loginRedirect(request.url);
  try {
    const me = await staffApi.get<StaffMember>('/staff/me');
    staffSession.setStaff(me);
    return me;
  } catch (error) {
    if (isApiError(error) && error.status === 401) throw loginRedirect(request.url);
    // Unreachable server: the page's own calls will say so; the stored member stands meanwhile.
    const stored = staffSession.staff();
    if (!stored) throw loginRedirect(request.url);
    return stored;
  }
}

/**
 * A page for some roles only: `loader: staffRoleLoader('operator')` on a child of the staff layout.
 * Signed out → /staff/login; another role → /staff with the "no access" notice.
 */
export function staffRoleLoader(...roles: StaffRole[]) {
  return ({ request }: { request: Request }) => {
    const staff = staffSession.staff();
    if (!staff) throw loginRedirect(request.url);
    if (roles.length && !roles.includes(staff.role)) throw redirect('/staff?forbidden=1');
    return staff;
  };
}
