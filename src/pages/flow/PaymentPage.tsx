import { useEffect, useRef, useState } from 'react';
import { Button, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '@/shared/api/client';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { useFlowProgress } from '@/shared/flow-progress';
import { loadStepsNamespace } from '@/shared/i18n';
import { trackPurchase } from '@/shared/tracking';
import { usePageTitle, useT } from '@/shared/useT';
import type { RegistrationRequest } from '@/core/api-types';
import { progress, type Flow } from '@/core/flow';
import { PAYMENT_POLL_MS, RegistrationType, type RegistrationTypeValue } from '@/core/registration';
import { routePath } from '@/core/routes';
import { FLOWS } from '@/engine/flows';
import { requestFlow } from '@/engine/request-flow';

/** Where a paid request goes: the flow's `paidRoute` (the new PFA's status page), else its current step. */
function afterPayment(flow: Flow, request: RegistrationRequest): string {
  if (flow.paidRoute) return routePath(flow.paidRoute) ?? flow.basePath;
  return routePath(request.steps.current.identifier, flow.registrationType, [flow]) ?? flow.basePath;
}

/**
 * Payment confirmation (`/infiintare-pfa/plata`, `/inregistrare/plata`; spec 001 §2 item 9, §4
 * "Payment"): the payment page sends the browser back here. The request is polled every 5 s; once
 * paid, the purchase event is pushed once and the applicant goes on (status page or the next step).
 * Back from a cancelled payment (`?anulata=`) it says so and offers the pricing step again.
 */
export function PaymentPage({ registrationType }: { registrationType: RegistrationTypeValue }) {
  const t = useT('pages');
  usePageTitle(t('payment.pageTitle'));
  const flow = FLOWS[registrationType];
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const cancelled = params.has('anulata');
  const [failed, setFailed] = useState(false);
  const tracked = useRef(false);
  const { i18n } = useTranslation();
  const { setProgress } = useFlowProgress();

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const query = registrationType === RegistrationType.existingCompany ? { no_next_step: 1 } : { timestamp: Date.now() };
    async function poll() {
      try {
        const request = await api.get<RegistrationRequest>(flow.api.open, query);
        if (!live) return;
        setFailed(false);
        // Back from the payment site the wrapper starts empty: show the step being paid for.
        const position = progress(requestFlow(flow, request), request.steps.current.identifier);
        await loadStepsNamespace(i18n);
        if (!live) return;
        setProgress({ value: position.percent, label: i18n.t('steps:common.progress', { position: position.position, total: position.total }) });
        if (request.paid) {
          if (!tracked.current) {
            tracked.current = true;
            trackPurchase(request.id);
          }
          navigate(afterPayment(flow, request), { replace: true });
          return;
        }
      } catch {
        if (live) setFailed(true);
      }
      if (live) timer = setTimeout(() => void poll(), PAYMENT_POLL_MS);
    }
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [flow, navigate, registrationType, i18n, setProgress]);

  if (cancelled) {
    return (
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          {t('payment.cancelledTitle')}
        </Heading>
        <FlashAlert status="info">{t('payment.cancelled')}</FlashAlert>
        <div>
          <Button colorPalette="blue" onClick={() => navigate(flow.basePath)}>
            {t('payment.backToPricing')}
          </Button>
        </div>
      </Stack>
    );
  }
  return (
    <Stack gap="6" align="center" textAlign="center" py="10" role="status" aria-live="polite">
      <Spinner size="xl" aria-hidden="true" />
      <Heading as="h1" size="xl">
        {t('payment.title')}
      </Heading>
      <Text color="fg.muted">{t('payment.waiting')}</Text>
      {failed ? <FlashAlert status="warning">{t('payment.pollError')}</FlashAlert> : null}
    </Stack>
  );
}

export function NewPaymentPage() {
  return <PaymentPage registrationType={RegistrationType.requestingCompany} />;
}

export function ExistingPaymentPage() {
  return <PaymentPage registrationType={RegistrationType.existingCompany} />;
}
