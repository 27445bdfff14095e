import { useId, useState } from 'react';
import { Box, Button, Heading, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useParams } from 'react-router';
import useSWR from 'swr';
import { isApiError } from '@/shared/api/client';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { toaster } from '@/shared/toaster';
import { usePageTitle } from '@/shared/useT';
import { saveStaffFile, staffApi } from './api';
import { Cell, DataTable, HeaderCell } from './DataTable';
import { AskForm, CloseActions, UploadForm } from './DossierActions';
import { address, AuditTable, CompanyBlock, Files, Pairs, Section, show, SignatureImage, fileUrl, TimelineList } from './DossierSections';
import { flowLabel, formatDateTime, statusLabel, useConsoleT } from './i18n';
export { consoleLoader } from './loader';
import { TimelineForm } from './TimelineForm';
import { profileRows } from './profile';
import { useStepNames } from './steps';

export function DossierPage() {
  const { t, language } = useConsoleT();
  const { id = '' } = useParams();
  const base = useId();
  usePageTitle(t('dossier.pageTitle', { id }));
  const { data: dossier, error, mutate } = useSWR(['/staff/dossiers/:id', id], () => staffApi.dossier(id), { revalidateOnFocus: false });
  const { data: types } = useSWR('/staff/timeline-types', () => staffApi.timelineTypes(), { revalidateOnFocus: false, revalidateIfStale: false });
  const [csvError, setCsvError] = useState<string | null>(null);
  const steps = useStepNames(t);

  const done = async (message: string) => {
    await mutate();
    toaster.create({ type: 'success', description: message });
  };

  if (error) {
    return (
      <Stack gap="4">
        <AppLink to="/staff/dossiers">{t('dossier.back')}</AppLink>
        <Heading as="h1" size="2xl">
          {t('dossier.pageTitle', { id })}
        </Heading>
        <FlashAlert title={isApiError(error) && error.status === 404 ? t('dossier.notFound') : t('loadError')} />
      </Stack>
    );
  }
  if (!dossier) return <Text role="status">{t('loading')}</Text>;

  const name = dossier.name ?? t('list.noName');
  const sid = (s: string) => `${base}-${s}`;
  const downloadCsv = async () => {
    setCsvError(null);
    try {
      await saveStaffFile(staffApi.auditCsvPath(dossier.id), `audit-dosar-${dossier.id}.csv`);
    } catch {
      setCsvError(t('dossier.downloadError'));
    }
  };

  return (
    <Stack gap="6">
      <AppLink to="/staff/dossiers">{t('dossier.back')}</AppLink>
      <Heading as="h1" size="2xl">
        {t('dossier.title', { id: dossier.id, name })}
      </Heading>

      <Section title={t('dossier.summary')} id={sid('summary')}>
        <Pairs
          rows={[
            [t('dossier.fields.email'), dossier.email],
            [t('dossier.fields.cnp'), show(dossier.cnp, t)],
            [t('dossier.fields.cui'), show(dossier.cui, t)],
            [t('dossier.fields.flow'), flowLabel(t, dossier.flow)],
            [t('dossier.fields.step'), steps.label(dossier.flow, dossier.step_id)],
            [t('dossier.fields.status'), <span data-testid="dossier-status">{statusLabel(t, dossier.status)}</span>],
            [t('dossier.fields.paid'), show(dossier.paid, t)],
            [t('dossier.fields.partner'), show(dossier.partner, t)],
            [t('dossier.fields.created'), formatDateTime(dossier.created_at, language)],
          ]}
        />
      </Section>

      <Section title={t('dossier.profile')} id={sid('profile')}>
        {Object.keys(dossier.profile ?? {}).length ? <Pairs rows={profileRows(dossier.profile, t).map(([key, label, value]) => [label, show(value, t), key])} /> : <Text>{t('dossier.noItems')}</Text>}
      </Section>

      {dossier.company ? (
        <Section title={t('dossier.company')} id={sid('company')}>
          <CompanyBlock company={dossier.company} t={t} />
        </Section>
      ) : null}

      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Section title={t('dossier.identity')} id={sid('identity')}>
          <Files dossier={dossier.id} files={dossier.identity_photos ?? []} t={t} />
        </Section>
        <Section title={t('dossier.documents')} id={sid('documents')}>
          <Files dossier={dossier.id} files={[...(dossier.documents ?? []), ...(dossier.licence_files ?? [])]} t={t} />
        </Section>
        <Section title={t('dossier.signature')} id={sid('signature')}>
          {dossier.signature && <SignatureImage url={fileUrl(dossier.id, dossier.signature)} alt={t('dossier.signatureImage')} />}
          <Files dossier={dossier.id} files={dossier.signature ? [dossier.signature] : []} t={t} />
        </Section>
        <Section title={t('dossier.caen')} id={sid('caen')}>
          {dossier.caen_codes?.length ? (
            <List.Root ms="5">
              {dossier.caen_codes.map((c) => (
                <List.Item key={`${c.revision ?? ''}${c.code}`}>
                  {c.code}
                  {c.name ? ` ${c.name}` : ''}
                  {c.primary ? ` (${t('dossier.caenPrimary')})` : ''}
                  {c.replacedBy ? (
                    <Text as="span" display="block" color="fg.warning">
                      {t(dossier.sent ? 'dossier.caenSentRev2' : 'dossier.caenChooseRev3', { revision: c.revision })}{' '}
                      {c.replacedBy.map((r) => `${r.code} ${r.name}`).join('; ')}
                    </Text>
                  ) : null}
                </List.Item>
              ))}
            </List.Root>
          ) : (
            <Text>{t('dossier.noItems')}</Text>
          )}
        </Section>
        <Section title={t('dossier.mailing')} id={sid('mailing')}>
          <Text>{dossier.mailing_address ? address(dossier.mailing_address) : t('none')}</Text>
        </Section>
        <Section title={t('dossier.signed')} id={sid('signed')}>
          <Files dossier={dossier.id} files={dossier.signed_documents ?? []} t={t} />
        </Section>
      </SimpleGrid>

      <Section title={t('dossier.payments')} id={sid('payments')}>
        <Stack gap="4">
          {dossier.payments?.length ? (
            <DataTable caption={t('dossier.paymentsCaption')}>
              <thead>
                <tr>
                  {(['id', 'provider', 'status', 'amount', 'created', 'paid'] as const).map((c) => (
                    <HeaderCell key={c}>{t(`dossier.paymentColumns.${c}`)}</HeaderCell>
                  ))}
                </tr>
              </thead>
              <tbody>
                {dossier.payments.map((p) => (
                  <tr key={p.id}>
                    <Cell>{p.id}</Cell>
                    <Cell>{t(`dossier.paymentProviders.${p.provider}`, { defaultValue: p.provider })}</Cell>
                    <Cell>{t(`dossier.paymentStatuses.${p.status}`, { defaultValue: p.status })}</Cell>
                    <Cell>
                      {p.amount} {p.currency}
                    </Cell>
                    <Cell>{formatDateTime(p.created_at, language)}</Cell>
                    <Cell>{p.paid_at ? formatDateTime(p.paid_at, language) : t('none')}</Cell>
                  </tr>
                ))}
              </tbody>
            </DataTable>
          ) : (
            <Text>{t('dossier.noItems')}</Text>
          )}
          <Heading as="h3" size="md">
            {t('dossier.billingEvents')}
          </Heading>
          <TimelineList items={dossier.billing_events ?? []} t={t} />
        </Stack>
      </Section>

      <Section title={t('dossier.timeline')} id={sid('timeline')}>
        <TimelineList items={dossier.timeline ?? []} t={t} />
      </Section>

      <Section title={t('dossier.tradeRegister')} id={sid('trade')}>
        <Files dossier={dossier.id} files={dossier.trade_register_documents ?? []} t={t} />
      </Section>

      <Section title={t('actions.title')} id={sid('actions')}>
        <Stack gap="6">
          <Box as="section" aria-labelledby={sid('add')}>
            <Heading as="h3" size="md" id={sid('add')} mb="3">
              {t('actions.timelineTitle')}
            </Heading>
            {types ? (
              <TimelineForm
                types={types}
                t={t}
                idPrefix={sid('tl')}
                onAdd={async (item) => {
                  const { message } = await staffApi.addTimelineItem(dossier.id, item);
                  await done(message || t('actions.timelineAdded'));
                }}
              />
            ) : (
              <Text role="status">{t('loading')}</Text>
            )}
          </Box>
          <Box as="section" aria-labelledby={sid('upload')}>
            <Heading as="h3" size="md" id={sid('upload')} mb="3">
              {t('actions.uploadTitle')}
            </Heading>
            <UploadForm id={dossier.id} t={t} onDone={done} />
          </Box>
          <Box as="section" aria-labelledby={sid('close')}>
            <Heading as="h3" size="md" id={sid('close')} mb="3">
              {t('actions.closeTitle')}
            </Heading>
            <CloseActions dossier={dossier} t={t} onDone={done} />
          </Box>
          <Box as="section" aria-labelledby={sid('ask')}>
            <Heading as="h3" size="md" id={sid('ask')} mb="3">
              {t('actions.askTitle')}
            </Heading>
            <AskForm id={dossier.id} t={t} onDone={done} />
          </Box>
        </Stack>
      </Section>

      <Section title={t('dossier.audit')} id={sid('audit')}>
        <Stack gap="3">
          <Button variant="outline" alignSelf="flex-start" onClick={() => void downloadCsv()}>
            {t('dossier.auditCsv')}
          </Button>
          {csvError && <FlashAlert title={csvError} />}
          <AuditTable entries={dossier.audit ?? []} t={t} language={language} />
        </Stack>
      </Section>
    </Stack>
  );
}
