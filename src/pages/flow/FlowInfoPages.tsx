import { Heading, Stack } from '@chakra-ui/react';
import { FlashAlert } from '../../app/components/FlashAlert';
import { usePageTitle, useT } from '../../app/useT';

function UnavailableStep({ section }: { section: 'payment' | 'status' }) {
  const t = useT('pages');
  usePageTitle(t(`${section}.pageTitle`));
  return (
    <Stack gap="6">
      <Heading as="h1" size="2xl">
        {t(`${section}.title`)}
      </Heading>
      <FlashAlert status="info">{t(`${section}.notice`)}</FlashAlert>
    </Stack>
  );
}

/**
 * /inregistrare/plata and /infiintare-pfa/plata: payment confirmation. Polling the payment is
 * not wired yet, so the page says so instead of pretending the payment went through.
 */
export function PaymentPage() {
  return <UnavailableStep section="payment" />;
}

/** /infiintare-pfa/status ('Status Dosar'): the status timeline is not wired yet. */
export function StatusPage() {
  return <UnavailableStep section="status" />;
}
