import { Stack, Text } from '@chakra-ui/react';
import type { RetentionPeriods } from '@/core/api-types';
import { quantity, type PrivacyT } from './i18n';
import { Item, Section } from './Section';

/**
 * "Ce păstrăm, de ce și cât timp" (issue 32): each category of data, why it is kept and for how long,
 * the periods from the server's configuration (`GET /api/user/privacy` `retention`), never from here.
 */
export function RetentionSection({ retention, t }: { retention: RetentionPeriods; t: PrivacyT }) {
  const days = (n: number) => quantity(t, 'days', n);
  const years = (n: number) => quantity(t, 'years', n);
  const items = [
    { key: 'account', howLong: { unfinished: days(retention.unfinished_days), warning: days(retention.warning_days) } },
    { key: 'idMedia', howLong: { days: days(retention.id_media_days) } },
    { key: 'lost', howLong: { days: days(retention.lost_days) } },
    { key: 'payments', howLong: { years: years(retention.accounting_years) } },
    { key: 'contract', howLong: { years: years(retention.contract_years) } },
  ];
  return (
    <Section title={t('retention.title')} testId="privacy-retention">
      <Text>{t('retention.intro')}</Text>
      <Stack as="ul" gap="4" listStyleType="none" ps="0">
        {items.map(({ key, howLong }) => (
          <Item key={key} title={t(`retention.${key}.title`)} testId={`retention-${key}`}>
            <Text>{t(`retention.${key}.why`)}</Text>
            <Text>{t(`retention.${key}.howLong`, howLong)}</Text>
          </Item>
        ))}
      </Stack>
    </Section>
  );
}
