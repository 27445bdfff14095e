import { redirect } from 'react-router';
import type { RegistrationTypeValue } from '../core/registration';
import { STATIC_ROUTES } from '../core/routes';
import { flowPath } from '../core/session';
import { session } from './session';

/**
 * Route guards of spec 000 §2.2, as data-router loaders: they decide on navigation (before the
 * page renders), so a sign-in that changes the session mid-page never races the page's own
 * redirect decision.
 */

/** Home: a signed-in user goes to the flow of their registration type, a guest to /register. */
export function homeLoader() {
  const user = session.user();
  throw redirect(user ? flowPath(user.registration_type) : STATIC_ROUTES['register-type-selection']);
}

/** Guest only: a signed-in user is sent to the flow of their registration type. */
export function guestOnlyLoader() {
  const user = session.user();
  if (user) throw redirect(flowPath(user.registration_type));
  return null;
}

/** Auth: a guest is sent to login. */
export function authLoader() {
  if (!session.user()) throw redirect(STATIC_ROUTES.login);
  return null;
}

/** A flow wrapper: signed in, and a user of the other registration type goes to their own flow. */
export function flowLoader(type: RegistrationTypeValue) {
  return () => {
    const user = session.user();
    if (!user) throw redirect(STATIC_ROUTES.login);
    if (user.registration_type !== type) throw redirect(flowPath(user.registration_type));
    return null;
  };
}
