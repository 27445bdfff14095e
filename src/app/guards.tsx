import { redirect } from 'react-router';
import type { RegistrationTypeValue } from '@/core/registration';
import { signInThenReturnTo, STATIC_ROUTES, type AccountRouteName } from '@/core/routes';
import { flowPath, signedInGuestTarget } from '@/core/session';
import { DASHBOARD_REDIRECT_PATH, takeAhead } from '@/shared/api/ahead';
import { api } from '@/shared/api/client';
import { parseCookies } from '@/shared/cookies';
import { session } from '@/shared/session';

/**
 * Route guards of spec 000 §2.2, as data-router loaders: they decide on navigation (before the
 * page renders), so a sign-in that changes the session mid-page never races the page's own
 * redirect decision.
 */

/** Home: a signed-in user goes to the flow of their registration type (or the dashboard once handed over), a guest to /register. */
export function homeLoader() {
  const user = session.user();
  if (user?.dashboard_redirect) throw redirect(STATIC_ROUTES.dashboard);
  throw redirect(user ? flowPath(user.registration_type) : STATIC_ROUTES['register-type-selection']);
}

/**
 * Guest only: a signed-in user is sent to the flow of their registration type, or back to the account
 * page the sign-in was asked for (`/login?redirect=my-data`).
 */
export function guestOnlyLoader({ request }: { request: Request }) {
  const user = session.user();
  if (user) throw redirect(signedInGuestTarget(user, new URL(request.url).search));
  return null;
}

/** Auth: a guest is sent to login. */
export function authLoader() {
  if (!session.user()) throw redirect(STATIC_ROUTES.login);
  return null;
}

/**
 * An account page of the applicant (issue 32, "Datele tale"): a guest signs in and comes back here
 * (`/login?redirect=<name>`). Signed in is all it asks: no dashboard-redirect check (neither the
 * session's `dashboard_redirect` nor the server's), so a user handed over to the dashboard still
 * reaches their own data.
 */
export function accountLoader(name: AccountRouteName) {
  return () => {
    if (!session.user()) throw redirect(signInThenReturnTo(name));
    return null;
  };
}

/**
 * The dashboard-redirect check (spec 000 §4.5): the server says whether the user belongs on the
 * dashboard now (a finalized dossier, a signed existing PFA). When not, it sets the cookie
 * `dashboard_redirect=0` for 5 minutes, which spares the question meanwhile. A failed check lets
 * the user stay.
 */
async function belongsOnDashboard(): Promise<boolean> {
  // A step page's document asked already (src/shared/api/ahead.ts): the first check takes that answer,
  // before the cookie, which that very answer may have set meanwhile.
  const early = takeAhead(DASHBOARD_REDIRECT_PATH, session.token());
  if (!early && parseCookies(document.cookie).some((c) => c.key === 'dashboard_redirect' && c.value === '0')) return false;
  try {
    return (await (early ? api.receive<boolean>(early) : api.get<boolean>(DASHBOARD_REDIRECT_PATH))) === true;
  } catch {
    return false;
  }
}

/**
 * A flow wrapper: signed in, and a user of the other registration type goes to their own flow; a
 * user the server hands over to the dashboard goes there (`/dashboard` leaves for its sign-on).
 */
export function flowLoader(type: RegistrationTypeValue) {
  return async () => {
    const user = session.user();
    if (!user) throw redirect(STATIC_ROUTES.login);
    if (user.registration_type !== type) throw redirect(flowPath(user.registration_type));
    if (await belongsOnDashboard()) throw redirect(STATIC_ROUTES.dashboard);
    return null;
  };
}
