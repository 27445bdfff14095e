import { useEffect, useRef } from 'react';
import { Box, VisuallyHidden } from '@chakra-ui/react';
import { useLogout } from '@/shared/auth-actions';
import { PageSpinner } from '@/shared/components/PageLayout';
import { usePageTitle, useT } from '@/shared/useT';

/** /logout: posts the logout, clears state and storage, goes home. */
export function LogoutPage() {
  const t = useT('common');
  usePageTitle(t('logout'));
  const logout = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout();
  }, [logout]);
  return (
    <Box as="main" id="main">
      <VisuallyHidden as="h1">{t('loggingOut')}</VisuallyHidden>
      <PageSpinner label={t('loggingOut')} />
    </Box>
  );
}
