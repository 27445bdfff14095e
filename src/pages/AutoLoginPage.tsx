import { useEffect, useRef } from 'react';
import { Box, VisuallyHidden } from '@chakra-ui/react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '@/shared/api/client';
import { resolveConfig } from '@/shared/api/hooks';
import type { SessionUser } from '@/core/api-types';
import { decideSignInRedirect } from '@/core/session';
import { followRedirect, signOutLocally } from '@/shared/auth-actions';
import { PageSpinner } from '@/shared/components/PageLayout';
import { session } from '@/shared/session';
import { trackLogin } from '@/shared/tracking';
import { usePageTitle, useT } from '@/shared/useT';

/**
 * /auto-login?token=&redirect= (spec 000 §4.2): no form. State is cleared, the single-use token
 * posted, the user stored; then dashboard, the named `redirect` route, or the flow by type. Any
 * failure goes silently to Home.
 */
export function AutoLoginPage() {
  const t = useT('auth');
  usePageTitle(t('autoLogin.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const started = useRef(false);
  const token = params.get('token');
  const redirectParam = params.get('redirect');

  useEffect(() => {
    // The token is single use: never post it twice (React StrictMode runs effects twice in dev).
    if (started.current) return;
    started.current = true;
    signOutLocally();
    if (!token) {
      navigate('/', { replace: true });
      return;
    }
    void (async () => {
      try {
        const payload = await api.post<SessionUser & { redirect?: string | null }>('/auto-login', { token });
        const { redirect: echoed, ...user } = payload;
        session.setUser(user);
        trackLogin(user.id);
        const config = await resolveConfig(null);
        const redirectRouteName = echoed ?? redirectParam;
        // A step's route name resolves through the flow files (loaded only then: they belong to the wizard's chunk).
        const flows = redirectRouteName ? Object.values((await import('../engine/flows')).FLOWS) : [];
        followRedirect(decideSignInRedirect(user, { dashboardUrl: config.dashboard_url, redirectRouteName, flows }), navigate);
      } catch {
        navigate('/', { replace: true });
      }
    })();
  }, [navigate, token, redirectParam]);

  return (
    <Box as="main" id="main">
      <VisuallyHidden as="h1">{t('autoLogin.title')}</VisuallyHidden>
      <PageSpinner label={t('autoLogin.title')} />
    </Box>
  );
}
