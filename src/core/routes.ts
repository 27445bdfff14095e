import { FLOW_BASE_PATH, type RegistrationTypeValue } from './registration';

/**
 * Named routes of the app (spec 000 §2.1, 001 §2). The auto-login `redirect` parameter and the
 * auto-login-link endpoint accept only these names, so a link can never point outside the app.
 * Step routes are listed per flow; `collect-user-profile-step` resolves to the identity step of
 * the user's flow.
 */
export const STATIC_ROUTES = {
  home: '/',
  login: '/login',
  'auto-login': '/auto-login',
  forgot: '/password/forgot',
  reset: '/password/reset',
  auth: '/auth',
  logout: '/logout',
  'verify-success': '/email/verify-success/',
  'already-verified': '/email/already-verified/',
  unsubscribe: '/unsubscribe',
  'register-type-selection': '/register',
  'register-account': '/register/account',
  'register-questionnaire-info': '/inregistrare/chestionar/info',
  'existing-company': '/inregistrare',
  'existing-confirm-payment': '/inregistrare/plata',
  'requesting-company': '/infiintare-pfa',
  'requesting-company-status': '/infiintare-pfa/status',
  'new-confirm-payment': '/infiintare-pfa/plata',
  /** The hand-over to the dashboard application (`{DASHBOARD_URL}/sso/{token}`), e.g. after the existing PFA's signature. */
  dashboard: '/dashboard',
} as const;

export type StaticRouteName = keyof typeof STATIC_ROUTES;

const NEW_STEP_COUNT = 10; // steps 0..9 (spec 001 §9)
const EXISTING_STEP_COUNT = 7; // steps 1..7

const stepRoutes: Record<string, string> = {};
for (let i = 0; i < NEW_STEP_COUNT; i++) stepRoutes[`requesting-company-step-${i}`] = `/infiintare-pfa/${i}`;
for (let i = 1; i <= EXISTING_STEP_COUNT; i++) stepRoutes[`existing-company-step-${i}`] = `/inregistrare/${i}`;

/** Identity step of each flow: target of `collect-user-profile-step`. */
export const IDENTITY_STEP_PATH: Record<RegistrationTypeValue, string> = {
  1: `${FLOW_BASE_PATH[1]}/5`,
  2: `${FLOW_BASE_PATH[2]}/1`,
};

/** Own keys only: `constructor`, `__proto__` or `toString` are properties of every object, not routes. */
const has = (table: object, name: string) => Object.prototype.hasOwnProperty.call(table, name);

export function isKnownRouteName(name: string): boolean {
  return has(STATIC_ROUTES, name) || has(stepRoutes, name) || name === 'collect-user-profile-step';
}

/** Path of a named route, or null when the name is unknown. */
export function routePath(name: string, registrationType?: RegistrationTypeValue): string | null {
  if (has(STATIC_ROUTES, name)) return STATIC_ROUTES[name as StaticRouteName];
  if (has(stepRoutes, name)) return stepRoutes[name];
  if (name === 'collect-user-profile-step') return IDENTITY_STEP_PATH[registrationType ?? 2];
  return null;
}
