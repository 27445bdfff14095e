import { useEffect } from 'react';
import { Heading, Text } from '@chakra-ui/react';
import { browser } from '@/shared/browser';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { usePageTitle, useT } from '@/shared/useT';

/** Closing delays of spec 000 §9. */
export const VERIFY_SUCCESS_CLOSE_MS = 3000;
export const ALREADY_VERIFIED_CLOSE_MS = 5000;

function useCloseAfter(ms: number): void {
  useEffect(() => {
    const timer = setTimeout(() => browser.close(), ms);
    return () => clearTimeout(timer);
  }, [ms]);
}

/** /email/verify-success/ ('Succes'): asks the user to close the page; closes after 3 s. */
export function EmailVerifiedPage() {
  const t = useT('auth');
  usePageTitle(t('emailVerified.pageTitle'));
  useCloseAfter(VERIFY_SUCCESS_CLOSE_MS);
  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('emailVerified.title')}
      </Heading>
      <Text>{t('emailVerified.text')}</Text>
      <FlashAlert status="info">{t('emailVerified.notice')}</FlashAlert>
    </PageLayout>
  );
}

/** /email/already-verified/: the page closes automatically after 5 s. */
export function EmailAlreadyVerifiedPage() {
  const t = useT('auth');
  usePageTitle(t('emailAlreadyVerified.pageTitle'));
  useCloseAfter(ALREADY_VERIFIED_CLOSE_MS);
  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('emailAlreadyVerified.title')}
      </Heading>
      <FlashAlert status="info">{t('emailAlreadyVerified.notice')}</FlashAlert>
    </PageLayout>
  );
}
