import { Heading } from '@chakra-ui/react';
import { STATIC_ROUTES } from '@/core/routes';
import { AppLink } from '@/shared/components/AppLink';
import { PageLayout } from '@/shared/components/PageLayout';
import { usePageTitle, useT } from '@/shared/useT';

/** The 404 copy with its link, as a page's heading (also inside a flow wrapper, for an unknown step address). */
export function NotFoundMessage() {
  const t = useT('common');
  usePageTitle(t('notFound.title'));
  return (
    <Heading as="h1" size="xl" lineHeight="tall">
      {t('notFound.message')} <AppLink to={STATIC_ROUTES.login}>{t('notFound.link')}</AppLink>
    </Heading>
  );
}

/** Any other path (spec 000 §2.3, §8). */
export function NotFoundPage() {
  return (
    <PageLayout>
      <NotFoundMessage />
    </PageLayout>
  );
}
