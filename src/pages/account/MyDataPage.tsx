import { useEffect, useRef, useState } from 'react';
import { Box, Button, Heading, Separator, Stack, Text } from '@chakra-ui/react';
import useSWR from 'swr';
import type { MarketingConsent, UserPrivacy } from '@/core/api-types';
import { STATIC_ROUTES } from '@/core/routes';
import { api } from '@/shared/api/client';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout, PageSpinner } from '@/shared/components/PageLayout';
import { usePageTitle } from '@/shared/useT';
import { ConsentsSection } from './ConsentsSection';
import { EraseSection } from './EraseSection';
import { ExportSection } from './ExportSection';
import { usePrivacyT } from './i18n';
import { RetentionSection } from './RetentionSection';

export const PRIVACY_PATH = '/user/privacy';

/**
 * "Datele tale", /contul-meu/date (issue 32; DESIGN.md "Personal data"): what the product keeps about
 * the signed-in applicant, why and for how long; what they accepted; the export; the erasure. Reached
 * from every page's footer and the privacy policy. Its route asks only for a session
 * (src/app/guards.tsx `accountLoader`): it never sends the applicant on to the dashboard.
 */
export function MyDataPage() {
  const { t, language } = usePrivacyT();
  usePageTitle(t('pageTitle'));
  const [erased, setErased] = useState<string | null>(null);
  // Once erased, the page asks nothing more: the token is gone.
  const { data, error, mutate, isLoading } = useSWR(erased === null ? PRIVACY_PATH : null, (path: string) => api.get<UserPrivacy>(path), {
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });

  if (erased !== null) return <Erased message={erased} t={t} />;

  const setMarketing = (marketing: MarketingConsent) => {
    if (data) void mutate({ ...data, consents: { ...data.consents, marketing } }, { revalidate: false });
  };

  return (
    <PageLayout maxW="2xl">
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          {t('title')}
        </Heading>
        {data && <Text color="fg.muted">{t('intro', { email: data.email })}</Text>}
      </Stack>
      {data ? (
        <>
          <RetentionSection retention={data.retention} t={t} />
          <Separator />
          <ConsentsSection consents={data.consents} onMarketing={setMarketing} t={t} language={language} />
          <Separator />
          <ExportSection perHour={data.exports_per_hour} t={t} />
          <Separator />
          <EraseSection kept={data.after_erasure} onErased={setErased} t={t} language={language} />
        </>
      ) : error && !isLoading ? (
        <Stack gap="3">
          <FlashAlert>{t('loadError')}</FlashAlert>
          <Box>
            <Button variant="outline" onClick={() => void mutate()}>
              {t('retry')}
            </Button>
          </Box>
        </Stack>
      ) : (
        <PageSpinner label={t('loading')} />
      )}
      <AppLink to={STATIC_ROUTES.home} alignSelf="start">
        {t('back')}
      </AppLink>
    </PageLayout>
  );
}

/** After the erasure: the account is gone and signed out here; the confirmation mail is on its way. */
function Erased({ message, t }: { message: string; t: ReturnType<typeof usePrivacyT>['t'] }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that had focus is gone: screen readers start again at the news.
  useEffect(() => heading.current?.focus(), []);
  return (
    <PageLayout>
      <Heading as="h1" size="2xl" ref={heading} tabIndex={-1} outline="none">
        {t('erase.doneTitle')}
      </Heading>
      <FlashAlert status="success">{message}</FlashAlert>
      <AppLink to={STATIC_ROUTES.home} alignSelf="start">
        {t('erase.home')}
      </AppLink>
    </PageLayout>
  );
}
