import type { RegistrationTypeValue } from './registration';
import type { FlowStep } from './flow/types';

/**
 * Named routes of the app (spec 000 §2.1, 001 §2). The auto-login `redirect` parameter and the
 * auto-login-link endpoint accept only these names, so a link can never point outside the app.
 * Step routes are the steps of the flow files (ids and paths); `collect-user-profile-step` resolves
 * to the identity step (the step whose rule is `identity`) of the user's flow.
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
  /** "Datele tale" (issue 32): what is kept and why, consents, the export, the erasure of the account. */
  'my-data': '/contul-meu/date',
} as const;

export type StaticRouteName = keyof typeof STATIC_ROUTES;

/**
 * The applicant's own account pages (issue 32): a guest who opens one signs in and comes back to it
 * (`/login?redirect=<name>`), and nothing hands the applicant over to the dashboard from it, neither
 * on the way in nor after signing in (the dashboard takes precedence everywhere else: spec 000 §4.1, §4.5).
 */
export const ACCOUNT_ROUTES = ['my-data'] as const satisfies readonly StaticRouteName[];
export type AccountRouteName = (typeof ACCOUNT_ROUTES)[number];

export function isAccountRoute(name: string | null | undefined): name is AccountRouteName {
  return typeof name === 'string' && (ACCOUNT_ROUTES as readonly string[]).includes(name);
}

/** The query parameter of /login that names the account page to come back to (as /auto-login's `redirect`). */
export const RETURN_PARAM = 'redirect';

/** Where a guest who opened the account page `name` is sent: `/login?redirect=my-data`. */
export function signInThenReturnTo(name: AccountRouteName): string {
  return `${STATIC_ROUTES.login}?${RETURN_PARAM}=${encodeURIComponent(name)}`;
}

/** The account page a sign-in page's query asks to come back to (`?redirect=my-data`), or null: only account pages, never another address. */
export function returnRouteOf(search: string | URLSearchParams): AccountRouteName | null {
  const name = new URLSearchParams(search).get(RETURN_PARAM);
  return isAccountRoute(name) ? name : null;
}

/** What the route table reads of a flow file: its type and its steps (ids, paths, rules). */
export type RouteFlow = { registrationType: RegistrationTypeValue; steps: readonly Pick<FlowStep, 'id' | 'path' | 'rule'>[] };

/** The step rule that marks a flow's identity step (target of `collect-user-profile-step`). */
export const IDENTITY_RULE = 'identity';

/** Own keys only: `constructor`, `__proto__` or `toString` are properties of every object, not routes. */
const has = (table: object, name: string) => Object.prototype.hasOwnProperty.call(table, name);

/** The identity step's path of the flow of a registration type, from the flow file. */
export function identityStepPath(flows: readonly RouteFlow[], registrationType: RegistrationTypeValue): string | null {
  const flow = flows.find((f) => f.registrationType === registrationType);
  return flow?.steps.find((s) => s.rule === IDENTITY_RULE)?.path ?? null;
}

function stepPath(flows: readonly RouteFlow[], name: string): string | null {
  for (const flow of flows) for (const step of flow.steps) if (step.id === name) return step.path;
  return null;
}

/** Whether `name` is a named route: a static one, a step of one of `flows`, or the identity step of one. */
export function isKnownRouteName(name: string, flows: readonly RouteFlow[] = []): boolean {
  if (has(STATIC_ROUTES, name)) return true;
  if (name === 'collect-user-profile-step') return flows.some((f) => identityStepPath(flows, f.registrationType) !== null);
  return stepPath(flows, name) !== null;
}

/**
 * Path of a named route, or null when the name is unknown. Step routes (and the identity step of
 * the user's flow) come from the flow files given: the table holds no step of its own.
 */
export function routePath(name: string, registrationType?: RegistrationTypeValue, flows: readonly RouteFlow[] = []): string | null {
  if (has(STATIC_ROUTES, name)) return STATIC_ROUTES[name as StaticRouteName];
  if (name === 'collect-user-profile-step') return identityStepPath(flows, registrationType ?? 2);
  return stepPath(flows, name);
}
