import { useState } from 'react';
import { Button, Heading, Spinner, Text } from '@chakra-ui/react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { api, isApiError } from '@/shared/api/client';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { toaster } from '@/shared/toaster';
import { usePageTitle, useT } from '@/shared/useT';

/** /unsubscribe/:frontend_id? (spec 001 §2, §7): stops notification e-mails. */
export function UnsubscribePage() {
  const t = useT('pages');
  usePageTitle(t('unsubscribe.pageTitle'));
  const { frontend_id: frontendId } = useParams();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  if (!frontendId?.trim()) return <Navigate to="/" replace />;

  async function unsubscribe() {
    setBusy(true);
    try {
      const { message } = await api.request<null>('/unsubscribe', { method: 'POST', body: { frontend_id: frontendId } });
      setDone(message);
    } catch (error) {
      // Spec 001 §7: on failure the user goes home; the reason is shown as a toast.
      toaster.create({
        type: 'error',
        title: isApiError(error) && error.message ? error.message : t('common:errors.generic'),
        closable: true,
      });
      navigate('/', { replace: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('unsubscribe.title')}
      </Heading>
      {done !== null ? (
        <FlashAlert status="success">{done}</FlashAlert>
      ) : (
        <>
          <Text>{t('unsubscribe.text')}</Text>
          <Button size="lg" onClick={unsubscribe} disabled={busy} alignSelf={{ sm: 'start' }}>
            {busy && <Spinner size="sm" aria-hidden="true" />}
            {t('unsubscribe.submit')}
          </Button>
        </>
      )}
    </PageLayout>
  );
}
