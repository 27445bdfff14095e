import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Card, DataList, Heading, List, Stack, Text } from '@chakra-ui/react';
import type { FieldProps } from '@rjsf/utils';
import { stepContext, type CompanyCaen, type StepServices } from '../types';

/** The code and its name in the revision the server found it in (the row of "Te-am găsit"). */
function caenLine(caen: CompanyCaen, t: StepServices['t']): string {
  if (caen.status === 'current' && caen.current) return t('steps:confirmCompany.caen.current', { code: caen.code, name: caen.current.name });
  if (caen.status === 'previous' && caen.previous) return t('steps:confirmCompany.caen.previous', { code: caen.code, name: caen.previous.name });
  if (caen.status === 'ambiguous') return t('steps:confirmCompany.caen.ambiguous', { code: caen.code });
  return t('steps:confirmCompany.caen.unknown', { code: caen.code });
}

/** Beyond this many Rev.3 classes the list is folded (a Rev.2 class such as 4791 became 32). */
const FOLD_AFTER = 5;

/**
 * A CAEN Rev.2 code (or one that may be read as one): what it became in CAEN Rev.3 and, in one
 * sentence, the trade register's procedure to update it.
 */
function CaenNotice({ caen, t, id }: { caen: CompanyCaen; t: StepServices['t']; id: string }) {
  const ambiguous = caen.status === 'ambiguous';
  const list = (
    <List.Root gap="1" ps="5" data-testid="caen-equivalents">
      {caen.equivalents.map((e) => (
        <List.Item key={e.code}>
          {e.code} – {e.name}
        </List.Item>
      ))}
    </List.Root>
  );
  return (
    <Alert.Root status="warning" role="region" aria-labelledby={`${id}-caen`} data-testid="caen-notice">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title id={`${id}-caen`}>{t(ambiguous ? 'steps:confirmCompany.caen.ambiguousTitle' : 'steps:confirmCompany.caen.previousTitle')}</Alert.Title>
        <Alert.Description>
          <Stack gap="2" mt="1">
            <Text>
              {ambiguous
                ? t('steps:confirmCompany.caen.ambiguousText', { code: caen.code, previous: caen.previous?.name ?? '', current: caen.current?.name ?? '' })
                : t('steps:confirmCompany.caen.previousText')}{' '}
              {t('steps:confirmCompany.caen.procedure')}
            </Text>
            {caen.equivalents.length ? (
              <>
                <Text>{t(caen.equivalents.length === 1 ? 'steps:confirmCompany.caen.equivalentOne' : 'steps:confirmCompany.caen.equivalentMany', { code: caen.code })}</Text>
                {caen.equivalents.length > FOLD_AFTER ? (
                  <details>
                    <Box as="summary" cursor="pointer" fontWeight="semibold">
                      {t('steps:confirmCompany.caen.showEquivalents', { count: caen.equivalents.length })}
                    </Box>
                    {list}
                  </details>
                ) : (
                  list
                )}
              </>
            ) : null}
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

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
 * (name, address, CUI, trade-register number, main CAEN code), with — when that code is of CAEN
 * Rev.2 (or may be read as one) — its CAEN Rev.3 correspondence and the trade register's update
 * procedure; then — on the first press of next — the notarial power-of-attorney information; the
 * second press confirms (`existing/confirm/company`).
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
  const caen = company.caen ?? null;
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
            {caen ? (
              <Row label={t('steps:confirmCompany.caen.label')} testId="company-caen">
                {caenLine(caen, t)}
              </Row>
            ) : null}
          </DataList.Root>
        </Card.Body>
      </Card.Root>
      {caen && (caen.status === 'previous' || caen.status === 'ambiguous') ? <CaenNotice caen={caen} t={t} id={ids} /> : null}
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
