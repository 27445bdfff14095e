import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert, Card, DataList, Heading, List, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext } from '../types';

/** One line of the PFA's data; from md its label and value are cells of the list's grid. */
function Row({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <DataList.Item display={{ md: 'contents' }}>
      <DataList.ItemLabel minW="0">{label}</DataList.ItemLabel>
      <DataList.ItemValue data-testid={testId} overflowWrap="anywhere">
        {children}
      </DataList.ItemValue>
    </DataList.Item>
  );
}

/**
 * "Te-am găsit" (spec 001 §2 existing-company screens): the PFA found by its fiscal code, read-only
 * (name, address, CUI, trade-register number), then — on the first press of next — the notarial
 * power-of-attorney information; the second press confirms (`existing/confirm/company`).
 */
export default function ConfirmCompanyField(props: FieldProps) {
  const { registry } = props;
  const { services, company, setSubmitGuard } = stepContext(registry);
  const { t } = services;
  const ids = useId();
  const [attorney, setAttorney] = useState(false);
  const shown = useRef(false);
  const infoRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setSubmitGuard(() => {
      if (shown.current) return true;
      shown.current = true;
      setAttorney(true);
      return false;
    });
    return () => setSubmitGuard(null);
  }, [setSubmitGuard]);

  useEffect(() => {
    if (attorney) infoRef.current?.focus();
  }, [attorney]);

  if (!company) {
    return (
      <Alert.Root status="warning" role="alert">
        <Alert.Indicator />
        <Alert.Description>{t('steps:confirmCompany.missing')}</Alert.Description>
      </Alert.Root>
    );
  }
  return (
    <Stack gap="5">
      <Text>{t('steps:confirmCompany.text')}</Text>
      <Card.Root variant="outline">
        <Card.Body>
          {/* Stacked on a phone; from md one grid, so every value starts in the same column. */}
          <DataList.Root
            orientation={{ base: 'vertical', md: 'horizontal' }}
            display={{ md: 'grid' }}
            gridTemplateColumns={{ md: 'max-content minmax(0, 1fr)' }}
            columnGap={{ md: '6' }}
            aria-label={t('steps:confirmCompany.dataLabel')}
          >
            <Row label={t('steps:confirmCompany.name')} testId="company-name">
              {company.name}
            </Row>
            <Row label={t('steps:confirmCompany.address')} testId="company-address">
              {company.address || t('steps:confirmCompany.noAddress')}
            </Row>
            <Row label={t('steps:confirmCompany.fiscalCode')}>{company.fiscal_code}</Row>
            {company.registration_number ? <Row label={t('steps:confirmCompany.registrationNumber')}>{company.registration_number}</Row> : null}
          </DataList.Root>
        </Card.Body>
      </Card.Root>
      <Text fontSize="sm" color="fg.muted">
        {t('steps:confirmCompany.wrongCompany')}
      </Text>
      {attorney ? (
        <Stack gap="3" ref={infoRef} tabIndex={-1} outline="none" role="region" aria-labelledby={`${ids}-attorney`} data-testid="attorney-info">
          <Heading as="h2" size="md" id={`${ids}-attorney`}>
            {t('steps:confirmCompany.attorney.title')}
          </Heading>
          <List.Root gap="2" ps="5">
            <List.Item>{t('steps:confirmCompany.attorney.cost')}</List.Item>
            <List.Item>{t('steps:confirmCompany.attorney.email')}</List.Item>
            <List.Item>{t('steps:confirmCompany.attorney.why')}</List.Item>
          </List.Root>
          <Text fontWeight="semibold">{t('steps:confirmCompany.attorney.continue')}</Text>
        </Stack>
      ) : null}
    </Stack>
  );
}
