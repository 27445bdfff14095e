import { useEffect, useLayoutEffect, useRef } from 'react';
import { Box, Button, SkipNavLink, Stack, Text } from '@chakra-ui/react';
import { Outlet, ScrollRestoration, useLocation, useNavigate, useRouteError } from 'react-router';
import { setUnauthorizedHandler } from '@/shared/api/client';
import { useConfig } from '@/shared/api/hooks';
import { STATIC_ROUTES } from '@/core/routes';
import { signOutLocally } from '@/shared/auth-actions';
import { useSession } from '@/shared/session';
import { mountSupportWidget, removeSupportWidget } from '@/shared/support-widget';
import { toaster } from '@/shared/toaster';
import { useT } from '@/shared/useT';
import { PageLayout } from '@/shared/components/PageLayout';
import { revealApp, revealUnlessAt } from '@/shared/shell';

/** Keeps the support widget in step with the session: present while signed in, gone after. */
function useSupportWidgetSync(): void {
  const { user } = useSession();
  const { config } = useConfig();
  const url = config.support_widget_url;
  const signedIn = Boolean(user);
  useEffect(() => {
    if (signedIn && url) mountSupportWidget(url);
    else if (!signedIn) removeSupportWidget();
  }, [signedIn, url]);
}

/**
 * A 401 on an authenticated call: forget the session and go to login. Set once (the latest
 * navigate and t through a ref), so there is no moment without a handler when they change.
 */
function useUnauthorizedRedirect(): void {
  const navigate = useNavigate();
  const t = useT('common');
  const latest = useRef({ navigate, t });
  useLayoutEffect(() => {
    latest.current = { navigate, t };
  });
  useLayoutEffect(() => {
    setUnauthorizedHandler(() => {
      signOutLocally();
      toaster.create({ type: 'warning', title: latest.current.t('errors.sessionExpired'), closable: true });
      latest.current.navigate(STATIC_ROUTES.login, { replace: true });
    });
    return () => setUnauthorizedHandler(null);
  }, []);
}

/** After an in-app navigation, move focus to the new page's heading so screen readers announce it. */
function useFocusOnNavigate(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && !heading.contains(document.activeElement)) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);
}

/**
 * A step page's prerendered shell (src/shared/shell.ts) stays while the app is at the shell's step
 * (the wizard shows the app when it draws the step); at any other address (a redirect to login, the
 * dashboard, the request's current step) the app shows at once.
 */
function useShellHandOver(): void {
  const { pathname } = useLocation();
  useLayoutEffect(() => revealUnlessAt(pathname), [pathname]);
}

/** Root route: skip link, the page, and the app-wide effects. */
export function AppRoot() {
  const t = useT('common');
  useShellHandOver();
  useSupportWidgetSync();
  useUnauthorizedRedirect();
  useFocusOnNavigate();
  return (
    <>
      <SkipNavLink id="main">{t('skipToContent')}</SkipNavLink>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** The payment confirmation pages (`…/plata`), where the payment site sends the browser back. */
const PAYMENT_RETURN = /\/plata\/?$/;

/**
 * Shown while the first route (and its lazy chunk) loads. Back from the payment site it says the
 * payment is being confirmed (issue 17 item 4), not just "Se încarcă…".
 */
export function AppLoading() {
  const t = useT('common');
  const paying = typeof window !== 'undefined' && PAYMENT_RETURN.test(window.location.pathname);
  return (
    <Box role="status" aria-live="polite" display="flex" alignItems="center" justifyContent="center" minH="100dvh" color="fg.muted">
      <Text>{t(paying ? 'loadingPayment' : 'loading')}</Text>
    </Box>
  );
}

/** A route failed to render or its chunk failed to load (e.g. after a deploy). */
export function RouteError() {
  const t = useT('common');
  const error = useRouteError();
  useLayoutEffect(revealApp, []);
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <PageLayout>
      <Stack gap="4" role="alert">
        <Text as="h1" fontSize="xl" fontWeight="semibold">
          {t('errors.pageLoad')}
        </Text>
        <Button alignSelf="start" onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </Button>
      </Stack>
    </PageLayout>
  );
}
