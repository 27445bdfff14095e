import { FLOW_BASE_PATH, type RegistrationTypeValue } from './registration';
import { isAccountRoute, returnRouteOf, routePath, STATIC_ROUTES, type RouteFlow } from './routes';

/** One entry of the user's tracked source (spec 000 §3). */
export interface UserSourceEntry {
  meta_key: string;
  meta_value: string;
}

/** The signed-in user as the login, register and auto-login calls return it (spec 000 §3, §7). */
export interface SessionUser {
  id: number;
  access_token: string;
  dashboard_redirect: boolean;
  email: string;
  phone: string;
  registration_type: RegistrationTypeValue;
  stop_flow: boolean;
  user_source: UserSourceEntry[];
  /** Set by registration when the new-company request has already been paid (spec 000 §4.3). */
  requesting_company_paid?: boolean;
  /** Set when the existing-company request holds a signature file (spec 000 §4.3). */
  signature_file_id?: number | null;
}

export type RedirectTarget = { kind: 'external'; url: string } | { kind: 'route'; path: string };

/** `{DASHBOARD_URL}/sso/{token}` (spec 000 §4.5). */
export function dashboardSsoUrl(dashboardUrl: string, token: string): string {
  return `${dashboardUrl.replace(/\/+$/, '')}/sso/${encodeURIComponent(token)}`;
}

export function flowPath(type: RegistrationTypeValue): string {
  return FLOW_BASE_PATH[type];
}

/**
 * Where a freshly signed-in user goes (spec 000 §4.1 login, §4.2 auto-login, §4.3 registration):
 * an account page asked for (`redirect=my-data`: the login's return, issue 32) before anything, as
 * the applicant asked for it and it never hands over to the dashboard; then the dashboard; then (auto-login
 * only) the named redirect route; then stop_flow to the questionnaire info page; then by registration type.
 */
export function decideSignInRedirect(
  user: Pick<SessionUser, 'access_token' | 'dashboard_redirect' | 'stop_flow' | 'registration_type' | 'requesting_company_paid' | 'signature_file_id'>,
  options: { dashboardUrl: string; redirectRouteName?: string | null; flows?: readonly RouteFlow[] },
): RedirectTarget {
  if (isAccountRoute(options.redirectRouteName)) return { kind: 'route', path: STATIC_ROUTES[options.redirectRouteName] };
  if (user.dashboard_redirect || (user.registration_type === 1 && user.signature_file_id)) {
    return { kind: 'external', url: dashboardSsoUrl(options.dashboardUrl, user.access_token) };
  }
  if (options.redirectRouteName) {
    const path = routePath(options.redirectRouteName, user.registration_type, options.flows);
    if (path) return { kind: 'route', path };
  }
  if (user.stop_flow) return { kind: 'route', path: STATIC_ROUTES['register-questionnaire-info'] };
  if (user.registration_type === 2 && user.requesting_company_paid) {
    return { kind: 'route', path: STATIC_ROUTES['requesting-company-status'] };
  }
  return { kind: 'route', path: flowPath(user.registration_type) };
}

/**
 * Where a signed-in user who opens a guest-only page goes (spec 000 §2.2): the account page its query
 * asks to come back to (`/login?redirect=my-data`), else the flow of their registration type.
 */
export function signedInGuestTarget(user: Pick<SessionUser, 'registration_type'>, search: string): string {
  const back = returnRouteOf(search);
  return back ? STATIC_ROUTES[back] : flowPath(user.registration_type);
}
