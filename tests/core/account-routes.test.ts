/**
 * The applicant's account pages (issue 32, "Datele tale"): named routes a guest comes back to after
 * signing in (`/login?redirect=my-data`), ahead of the dashboard hand-over; nothing else is followed.
 */
import { describe, expect, it } from 'vitest';
import { isAccountRoute, isKnownRouteName, returnRouteOf, routePath, signInThenReturnTo, STATIC_ROUTES } from '@/core/routes';
import { decideSignInRedirect, signedInGuestTarget } from '@/core/session';

const USER = { access_token: 'tok', dashboard_redirect: false, stop_flow: false, registration_type: 2 as const };
const DASHBOARD = 'https://dashboard.example';

describe('account routes', () => {
  it('"my-data" is the named route /contul-meu/date, an account page', () => {
    expect(routePath('my-data')).toBe('/contul-meu/date');
    expect(isKnownRouteName('my-data')).toBe(true);
    expect(isAccountRoute('my-data')).toBe(true);
    for (const other of ['dashboard', 'login', 'constructor', '', null, undefined]) expect(isAccountRoute(other), String(other)).toBe(false);
  });

  it('a guest is sent to /login?redirect=<name>, and the login reads back only account pages', () => {
    expect(signInThenReturnTo('my-data')).toBe('/login?redirect=my-data');
    expect(returnRouteOf('?redirect=my-data')).toBe('my-data');
    expect(returnRouteOf(new URLSearchParams('redirect=my-data'))).toBe('my-data');
    for (const search of ['', '?redirect=dashboard', '?redirect=%2Fcontul-meu%2Fdate', '?redirect=https%3A%2F%2Fevil.example', '?next=my-data']) {
      expect(returnRouteOf(search), search).toBeNull();
    }
  });

  it('after signing in, the account page asked for comes first: before the dashboard, stop_flow and the flow', () => {
    const back = { kind: 'route', path: STATIC_ROUTES['my-data'] };
    expect(decideSignInRedirect(USER, { dashboardUrl: DASHBOARD, redirectRouteName: 'my-data' })).toEqual(back);
    expect(decideSignInRedirect({ ...USER, dashboard_redirect: true }, { dashboardUrl: DASHBOARD, redirectRouteName: 'my-data' })).toEqual(back);
    expect(decideSignInRedirect({ ...USER, registration_type: 1, signature_file_id: 9 }, { dashboardUrl: DASHBOARD, redirectRouteName: 'my-data' })).toEqual(back);
    expect(decideSignInRedirect({ ...USER, stop_flow: true }, { dashboardUrl: DASHBOARD, redirectRouteName: 'my-data' })).toEqual(back);
    // Any other named route still comes after the dashboard (spec 000 §4.2).
    expect(decideSignInRedirect({ ...USER, dashboard_redirect: true }, { dashboardUrl: DASHBOARD, redirectRouteName: 'login' })).toEqual({ kind: 'external', url: `${DASHBOARD}/sso/tok` });
    expect(decideSignInRedirect(USER, { dashboardUrl: DASHBOARD })).toEqual({ kind: 'route', path: '/infiintare-pfa' });
  });

  it('a signed-in user on a guest page goes back to the account page asked for, else to their flow', () => {
    expect(signedInGuestTarget({ registration_type: 1 }, '?redirect=my-data')).toBe('/contul-meu/date');
    expect(signedInGuestTarget({ registration_type: 1 }, '')).toBe('/inregistrare');
    expect(signedInGuestTarget({ registration_type: 2 }, '?redirect=dashboard')).toBe('/infiintare-pfa');
  });
});
