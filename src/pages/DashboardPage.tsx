import { useEffect } from 'react';
import { Button, Heading, Spinner, Text } from '@chakra-ui/react';
import { useConfig } from '@/shared/api/hooks';
import { browser } from '@/shared/browser';
import { PageLayout } from '@/shared/components/PageLayout';
import { session, useSession } from '@/shared/session';
import { usePageTitle, useT } from '@/shared/useT';
import { dashboardSsoUrl } from '@/core/session';

/**
 * `/dashboard`: the hand-over to the dashboard application (`{DASHBOARD_URL}/sso/{token}`, spec 000
 * §4.5), where a flow ends (the existing PFA's signature). From then on login goes there directly.
 */
export function DashboardPage() {
  const t = useT('pages');
  usePageTitle(t('dashboard.pageTitle'));
  const { config, loaded } = useConfig();
  const { user } = useSession();
  const target = user ? dashboardSsoUrl(config.dashboard_url || window.location.origin, user.access_token) : null;

  useEffect(() => {
    if (!loaded || !user || !target) return;
    if (!user.dashboard_redirect) session.setUser({ ...user, dashboard_redirect: true });
    browser.assign(target);
    // Once, when the config is known.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded]);

  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('dashboard.title')}
      </Heading>
      <Spinner aria-hidden="true" />
      <Text>{t('dashboard.text')}</Text>
      {target ? (
        <Button alignSelf={{ sm: 'start' }} onClick={() => browser.assign(target)}>
          {t('dashboard.open')}
        </Button>
      ) : null}
    </PageLayout>
  );
}
