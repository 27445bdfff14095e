import { useState } from 'react';
import { Box, Button, Stack, Text } from '@chakra-ui/react';
import type { MarketingConsent, UserPrivacy } from '@/core/api-types';
import { api, isApiError } from '@/shared/api/client';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { formatDay, type PrivacyT } from './i18n';
import { Item, Section } from './Section';

export const WITHDRAW_MARKETING_PATH = '/user/consents/marketing';

function marketingText(marketing: MarketingConsent, t: PrivacyT, day: (at: string) => string): string {
  if (marketing.withdrawn_at) return t('consents.marketing.withdrawn', { accepted: marketing.accepted_at ? day(marketing.accepted_at) : '', withdrawn: day(marketing.withdrawn_at) });
  if (marketing.accepted && marketing.accepted_at) return t('consents.marketing.accepted', { date: day(marketing.accepted_at) });
  return t('consents.marketing.never');
}

/**
 * "Ce ai acceptat" (issue 32): the terms and privacy policy accepted at registration (the texts'
 * version and the day), the marketing mails (accepted, withdrawn) and the button that withdraws them
 * (`DELETE /api/user/consents/marketing`), after which the state shown is the server's answer.
 */
export function ConsentsSection({ consents, onMarketing, t, language }: {
  consents: UserPrivacy['consents'];
  onMarketing: (marketing: MarketingConsent) => void;
  t: PrivacyT;
  language: string;
}) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ status: 'success' | 'error'; text: string } | null>(null);
  const day = (at: string) => formatDay(at, language);
  const { terms, marketing } = consents;

  async function withdraw() {
    setBusy(true);
    setNotice(null);
    try {
      const answer = await api.request<MarketingConsent>(WITHDRAW_MARKETING_PATH, { method: 'DELETE' });
      onMarketing(answer.payload);
      if (answer.message) setNotice({ status: 'success', text: answer.message });
    } catch (error) {
      setNotice({ status: 'error', text: isApiError(error) && error.message ? error.message : t('consents.marketing.error') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('consents.title')} testId="privacy-consents">
      <Stack as="ul" gap="4" listStyleType="none" ps="0">
        <Item title={t('consents.terms.title')} testId="consent-terms">
          {terms ? (
            <>
              <Text>{t('consents.terms.accepted', { date: day(terms.accepted_at) })}</Text>
              <Text color="fg.muted" fontSize="sm" wordBreak="break-word">
                {t('consents.terms.version', { version: terms.version })}
              </Text>
            </>
          ) : (
            <Text>{t('consents.terms.none')}</Text>
          )}
        </Item>
        <Item title={t('consents.marketing.title')} testId="consent-marketing">
          <Text>{marketingText(marketing, t, day)}</Text>
          {marketing.accepted && !marketing.withdrawn_at && (
            <>
              <Text color="fg.muted" fontSize="sm">
                {t('consents.marketing.hint')}
              </Text>
              <Box>
                <Button variant="outline" onClick={() => void withdraw()} loading={busy} loadingText={t('consents.marketing.withdraw')} whiteSpace="normal" h="auto" minH="10" py="2">
                  {t('consents.marketing.withdraw')}
                </Button>
              </Box>
            </>
          )}
        </Item>
      </Stack>
      {notice && <FlashAlert status={notice.status}>{notice.text}</FlashAlert>}
    </Section>
  );
}
