import { Alert, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Link } from '@chakra-ui/react';
import { usePageTitle } from '@/shared/useT';
import { useStaffT } from './i18n';
import { STAFF_HOME, useStaffSession } from './session';

/** /staff: who is signed in and where their work is; the notice when a page of the other role was asked for. */
export function StaffHomePage() {
  const t = useStaffT();
  const staff = useStaffSession()?.staff;
  const [params] = useSearchParams();
  usePageTitle(t('home.pageTitle'));
  if (!staff) return null;
  const page = staff.role === 'operator' ? t('layout.dossiers') : t('layout.preview');
  return (
    <Stack gap="5" maxW="2xl">
      {params.get('forbidden') && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Title>{t('home.forbidden')}</Alert.Title>
        </Alert.Root>
      )}
      <Heading as="h1" size="2xl">
        {t('home.title', { email: staff.email })}
      </Heading>
      <Text>{t(`home.${staff.role}`)}</Text>
      <Link asChild alignSelf="start" fontWeight="semibold">
        <RouterLink to={STAFF_HOME[staff.role]}>
          {t('home.open')}: {page}
        </RouterLink>
      </Link>
    </Stack>
  );
}

/** An address under /staff that is no staff page. */
export function StaffNotFoundPage() {
  const t = useStaffT();
  usePageTitle(t('notFound.title'));
  return (
    <Stack gap="3">
      <Heading as="h1" size="2xl">
        {t('notFound.title')}
      </Heading>
      <Text>{t('notFound.text')}</Text>
    </Stack>
  );
}
