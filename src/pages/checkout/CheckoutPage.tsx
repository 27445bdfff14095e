import { useEffect, useState } from 'react';
import { Button, Card, DataList, Heading, HStack, List, Spinner, Stack, Text } from '@chakra-ui/react';
import { useParams } from 'react-router';
import { api, isApiError } from '@/shared/api/client';
import { browser } from '@/shared/browser';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { PageLayout } from '@/shared/components/PageLayout';
import { firstMonths, usePageTitle, useT } from '@/shared/useT';

/** `GET /api/checkout/:id`: what the built-in checkout shows. */
interface Checkout {
  id: string;
  status: 'open' | 'paid' | 'cancelled' | 'failed';
  amount: number;
  currency: string;
  interval: string | null;
  /** One phase, or the introductory one (`intervals` months) and the later amount (`intervals` null). */
  phases?: { amount: number; intervals: number | null }[];
  description: string | null;
  partner: { name: string; is_unaffiliated: boolean; footnote: string | null };
  product: string;
  successUrl: string;
  cancelUrl: string;
}

const amountFormat = new Intl.NumberFormat('ro-RO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** How many intervals the phases before phase `index` last (the later amount starts after them). */
function phasesBefore(phases: NonNullable<Checkout['phases']>, index: number): number {
  return phases.slice(0, index).reduce((sum, p) => sum + (p.intervals ?? 0), 0);
}

/**
 * The built-in checkout (`/checkout/:paymentId`), the payment page where no Stripe account is
 * configured (local use, tests): the amount and the partner, "Plătește" and "Anulează". Paying marks
 * the request paid through the same code path as Stripe's webhook; a price with an introductory
 * phase lists both phases (130 lei for 3 months, then 72), as Stripe's schedule bills them. Either
 * button goes back to the flow's payment confirmation page, as Stripe's success and cancel URLs do.
 * No card is asked for.
 */
export function CheckoutPage() {
  const t = useT('pages');
  usePageTitle(t('checkout.pageTitle'));
  const { paymentId = '' } = useParams();
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'pay' | 'cancel' | null>(null);

  useEffect(() => {
    let live = true;
    api.get<Checkout>(`/checkout/${encodeURIComponent(paymentId)}`).then(
      (c) => live && setCheckout(c),
      (e) => live && setError(isApiError(e) && e.message ? e.message : t('common:errors.generic')),
    );
    return () => {
      live = false;
    };
  }, [paymentId, t]);

  async function act(action: 'pay' | 'cancel') {
    setBusy(action);
    setError(null);
    try {
      const { redirect_url } = await api.post<{ redirect_url: string }>(`/checkout/${encodeURIComponent(paymentId)}/${action}`);
      browser.assign(redirect_url);
    } catch (e) {
      setError(isApiError(e) && e.message ? e.message : t('common:errors.generic'));
      setBusy(null);
    }
  }

  const money = (amount: number) => `${amountFormat.format(amount)} ${checkout?.currency === 'RON' ? 'lei' : checkout?.currency ?? ''}`;
  const price = checkout ? money(checkout.amount) : '';
  return (
    <PageLayout>
      <Heading as="h1" size="2xl">
        {t('checkout.title')}
      </Heading>
      {error ? <FlashAlert>{error}</FlashAlert> : null}
      {!checkout && !error ? <Spinner aria-label={t('checkout.loading')} /> : null}
      {checkout ? (
        <>
          <FlashAlert status="info">{t('checkout.builtinNotice')}</FlashAlert>
          <Card.Root variant="outline">
            <Card.Body>
              <DataList.Root orientation="horizontal">
                <DataList.Item>
                  <DataList.ItemLabel>{t('checkout.product')}</DataList.ItemLabel>
                  <DataList.ItemValue>{checkout.description ? `${checkout.product} – ${checkout.description}` : checkout.product}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>{t('checkout.partner')}</DataList.ItemLabel>
                  <DataList.ItemValue>{checkout.partner.name}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>{t('checkout.amount')}</DataList.ItemLabel>
                  <DataList.ItemValue fontWeight="bold" data-testid="checkout-amount">
                    {checkout.interval === 'month' ? t('checkout.perMonth', { price }) : price}
                  </DataList.ItemValue>
                </DataList.Item>
              </DataList.Root>
              {checkout.phases && checkout.phases.length > 1 ? (
                <Stack gap="1" mt="4" data-testid="checkout-phases">
                  <Text fontWeight="medium" id="checkout-phases-title">
                    {t('checkout.phases')}
                  </Text>
                  <List.Root as="ol" ps="5" gap="1" aria-labelledby="checkout-phases-title">
                    {checkout.phases.map((phase, i) => (
                      <List.Item key={i}>
                        {phase.intervals !== null
                          ? t('checkout.phaseIntro', { price: money(phase.amount), firstMonths: firstMonths(t, phase.intervals) })
                          : t('checkout.phaseThen', { price: money(phase.amount), month: phasesBefore(checkout.phases ?? [], i) + 1 })}
                      </List.Item>
                    ))}
                  </List.Root>
                </Stack>
              ) : null}
              {checkout.partner.footnote ? (
                <Text mt="3" fontSize="sm" color="fg.muted">
                  * {checkout.partner.footnote}
                </Text>
              ) : null}
            </Card.Body>
          </Card.Root>
          {checkout.status === 'open' ? (
            <HStack gap="3" wrap="wrap">
              <Button colorPalette="blue" size="lg" onClick={() => void act('pay')} loading={busy === 'pay'} loadingText={t('checkout.pay')} disabled={busy !== null}>
                {t('checkout.pay')}
              </Button>
              <Button variant="outline" size="lg" onClick={() => void act('cancel')} loading={busy === 'cancel'} loadingText={t('checkout.cancel')} disabled={busy !== null}>
                {t('checkout.cancel')}
              </Button>
            </HStack>
          ) : (
            <>
              <FlashAlert status={checkout.status === 'paid' ? 'success' : 'info'}>{t(`checkout.status.${checkout.status}`)}</FlashAlert>
              <div>
                <Button onClick={() => browser.assign(checkout.status === 'paid' ? checkout.successUrl : checkout.cancelUrl)}>{t('checkout.back')}</Button>
              </div>
            </>
          )}
        </>
      ) : null}
    </PageLayout>
  );
}
