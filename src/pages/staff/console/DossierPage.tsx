import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Box, Button, Dialog, Field, Heading, HStack, Image, Input, List, Portal, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useParams } from 'react-router';
import useSWR from 'swr';
import { isApiError } from '@/shared/api/client';
import { AppLink } from '@/shared/components/AppLink';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { toaster } from '@/shared/toaster';
import { usePageTitle } from '@/shared/useT';
import type { MailingAddress } from '@/core/api-types';
import type { TimelineItem } from '@/core/timeline';
import { saveStaffFile, staffApi, type AuditEntry, type Dossier, type DossierCompany, type DossierFile } from './api';
import { Cell, DataTable, HeaderCell } from './DataTable';
import { flowLabel, statusLabel } from './DossiersPage';
export { consoleLoader } from './DossiersPage';
import { formatDateTime, useConsoleT, type ConsoleT } from './i18n';
import { TimelineForm } from './TimelineForm';
import { profileRows } from './profile';
import { useStepNames } from './steps';

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <Box as="section" aria-labelledby={id} borderTopWidth="1px" pt="4">
      <Heading as="h2" size="lg" id={id} mb="3">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/** A list of labelled values; `key`: a row's own key when two labels may read alike. */
function Pairs({ rows }: { rows: [label: string, value: ReactNode, key?: string][] }) {
  return (
    <Box as="dl" display="grid" gridTemplateColumns={{ base: '1fr', sm: 'minmax(10rem, max-content) 1fr' }} columnGap="4" rowGap="1">
      {rows.map(([label, value, key]) => (
        <Box key={key ?? label} display="contents">
          <Box as="dt" fontWeight="semibold">
            {label}
          </Box>
          <Box as="dd" mb={{ base: '2', sm: '0' }} overflowWrap="anywhere">
            {value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

function show(value: unknown, t: ConsoleT): string {
  if (value === null || value === undefined || value === '') return t('none');
  if (typeof value === 'boolean') return value ? t('yes') : t('no');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The file's download address: the one the API gives, else the contract's `/api/staff/dossiers/:id/files/:file`. */
function fileUrl(dossier: number, file: DossierFile): string {
  return file.url || `/api/staff/dossiers/${dossier}/files/${file.id}`;
}

function Files({ dossier, files, t }: { dossier: number; files: DossierFile[]; t: ConsoleT }) {
  const [error, setError] = useState<string | null>(null);
  if (!files.length) return <Text>{t('dossier.noFiles')}</Text>;
  const download = async (file: DossierFile) => {
    setError(null);
    try {
      await saveStaffFile(fileUrl(dossier, file), file.name);
    } catch {
      setError(t('dossier.downloadError'));
    }
  };
  return (
    <Stack gap="2">
      <List.Root listStyle="none" ms="0" gap="2">
        {files.map((file) => (
          <List.Item key={`${file.kind ?? ''}-${file.id}`} display="flex" gap="2" alignItems="center" flexWrap="wrap">
            {file.kind && <Text as="span">{t(`dossier.kinds.${file.kind}`, { defaultValue: file.kind })}:</Text>}
            <Button variant="outline" size="sm" onClick={() => void download(file)} whiteSpace="normal" textAlign="start" h="auto" minH="8" py="1">
              {t('dossier.download', { name: file.name })}
            </Button>
          </List.Item>
        ))}
      </List.Root>
      {error && <FlashAlert title={error} />}
    </Stack>
  );
}

/** The signature as an image (fetched with the staff token), above its download. */
function SignatureImage({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    staffApi
      .blob(url)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return src ? <Image src={src} alt={alt} maxW="18rem" borderWidth="1px" borderRadius="l2" bg="white" mb="2" /> : null;
}

/** The firm's main CAEN code in the revision the server found it in. */
function caenLine(caen: NonNullable<DossierCompany['caen']>, t: ConsoleT): string {
  if (caen.status === 'current' && caen.current) return t('dossier.companyCaenCurrent', { code: caen.code, name: caen.current.name });
  if (caen.status === 'previous' && caen.previous) return t('dossier.companyCaenPrevious', { code: caen.code, name: caen.previous.name });
  if (caen.status === 'ambiguous') return t('dossier.companyCaenAmbiguous', { code: caen.code, previous: caen.previous?.name ?? '', current: caen.current?.name ?? '' });
  return t('dossier.companyCaenUnknown', { code: caen.code });
}

/** "Am PFA": the firm found by its CUI; a CAEN Rev.2 main code (or one that may be read as one) with its Rev.3 correspondence and the update procedure. */
function CompanyBlock({ company, t }: { company: DossierCompany; t: ConsoleT }) {
  const caen = company.caen ?? null;
  const update = caen && (caen.status === 'previous' || caen.status === 'ambiguous');
  return (
    <Stack gap="3">
      <Pairs
        rows={[
          [t('dossier.companyName'), company.name],
          [t('dossier.fields.cui'), company.fiscal_code],
          [t('dossier.companyRegistration'), show(company.registration_number, t)],
          [t('dossier.companyAddress'), show(company.address, t)],
          [t('dossier.companyCaen'), caen ? <span data-testid="company-caen">{caenLine(caen, t)}</span> : show(company.caen_code, t)],
        ]}
      />
      {update ? (
        <Box borderStartWidth="4px" borderColor="border.warning" ps="3" data-testid="company-caen-notice">
          <Text>
            {t(caen.status === 'ambiguous' ? 'dossier.companyCaenAmbiguousText' : 'dossier.companyCaenPreviousText')} {t('dossier.companyCaenProcedure')}
          </Text>
          {caen.equivalents.length ? (
            <>
              <Text mt="2">{t('dossier.companyCaenEquivalents')}</Text>
              <List.Root ms="5">
                {caen.equivalents.map((e) => (
                  <List.Item key={e.code}>
                    {e.code} {e.name}
                  </List.Item>
                ))}
              </List.Root>
            </>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}

function address(a: MailingAddress): string {
  const line = [a.street, a.number, a.building && `bl. ${a.building}`, a.entrance && `sc. ${a.entrance}`, a.floor && `et. ${a.floor}`, a.apartment && `ap. ${a.apartment}`].filter(Boolean).join(', ');
  return [`${a.contact_last_name} ${a.contact_first_name}`, a.contact_phone, line, [a.postal_code, a.city, a.county].filter(Boolean).join(', ')].filter(Boolean).join(' · ');
}

/** One timeline item: its type's title (the applicant's status page copy), its date and its fields. */
function TimelineList({ items, t }: { items: TimelineItem[]; t: ConsoleT }) {
  if (!items.length) return <Text>{t('dossier.noItems')}</Text>;
  return (
    <List.Root as="ol" listStyle="none" ms="0" gap="3">
      {items.map((item) => {
        const { id, type, date, ...fields } = item as TimelineItem & Record<string, unknown>;
        const entries = Object.entries(fields);
        return (
          <List.Item key={id} data-testid="staff-timeline-item" borderWidth="1px" borderRadius="l2" p="3">
            <Heading as="h3" size="sm">
              {t(`pages:status.items.${type}.title`, { defaultValue: type })} · {date}
            </Heading>
            {entries.length > 0 && (
              <Text fontSize="sm" color="fg.muted">
                {entries.map(([k, v]) => `${t(`timelineFields.${k}`, { defaultValue: k })}: ${show(v, t)}`).join('; ')}
              </Text>
            )}
          </List.Item>
        );
      })}
    </List.Root>
  );
}

function AuditTable({ entries, t, language }: { entries: AuditEntry[]; t: ConsoleT; language: string }) {
  if (!entries.length) return <Text>{t('dossier.auditEmpty')}</Text>;
  const json = (v: unknown) => (v === null || v === undefined ? t('none') : JSON.stringify(v));
  return (
    <DataTable caption={t('dossier.auditCaption')}>
      <thead>
        <tr>
          {(['at', 'staff', 'action', 'before', 'after'] as const).map((c) => (
            <HeaderCell key={c}>{t(`dossier.auditColumns.${c}`)}</HeaderCell>
          ))}
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid="audit-row">
            <Cell>{formatDateTime(e.at, language)}</Cell>
            <Cell>{e.staff ?? (e.actor ? t('dossier.opsActor', { name: e.actor }) : t('dossier.opsToken'))}</Cell>
            <Cell>{t(`dossier.auditActions.${e.action}`, { defaultValue: e.action })}</Cell>
            <Cell>
              <Box as="code" fontSize="xs" overflowWrap="anywhere">
                {json(e.before)}
              </Box>
            </Cell>
            <Cell>
              <Box as="code" fontSize="xs" overflowWrap="anywhere">
                {json(e.after)}
              </Box>
            </Cell>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

function failure(error: unknown, t: ConsoleT): string {
  if (isApiError(error)) {
    const first = Object.values(error.fieldErrors)[0]?.[0];
    return first ?? (error.message || t('actions.failed'));
  }
  return t('actions.failed');
}

/**
 * An action's state on the dossier page: `busy` while it runs, and its failure in words (`failure`);
 * `run` clears the last error, runs the call, and keeps what went wrong for the form to show.
 */
function useAction(t: ConsoleT) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(failure(e, t));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, run };
}

function UploadForm({ id, t, onDone }: { id: number; t: ConsoleT; onDone: (message: string) => Promise<void> }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const { error, setError, busy, run } = useAction(t);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const files = Array.from(input.current?.files ?? []);
    if (!files.length) return setError(t('actions.uploadNone'));
    await run(async () => {
      const { message } = await staffApi.attach(id, files);
      if (input.current) input.current.value = '';
      await onDone(message || t('actions.uploaded'));
    });
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <Field.Root invalid={Boolean(error)}>
          <Field.Label htmlFor={inputId}>{t('actions.uploadLabel')}</Field.Label>
          <Input id={inputId} ref={input} type="file" multiple accept="application/pdf,image/*" p="1" aria-describedby={error ? `${inputId}-error` : undefined} />
          {error && <Field.ErrorText id={`${inputId}-error`}>{error}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" alignSelf="flex-start" disabled={busy}>
          {t('actions.uploadButton')}
        </Button>
      </Stack>
    </form>
  );
}

function AskForm({ id, t, onDone }: { id: number; t: ConsoleT; onDone: (message: string) => Promise<void> }) {
  const inputId = useId();
  const [text, setText] = useState('');
  const { error, setError, busy, run } = useAction(t);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return setError(t('actions.askEmpty'));
    await run(async () => {
      const { message } = await staffApi.askForDocuments(id, text.trim());
      setText('');
      await onDone(message || t('actions.asked'));
    });
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <Field.Root invalid={Boolean(error)}>
          <Field.Label htmlFor={inputId}>{t('actions.askLabel')}</Field.Label>
          <Textarea id={inputId} value={text} onChange={(e) => setText(e.currentTarget.value)} rows={4} maxLength={2000} aria-describedby={`${inputId}-hint${error ? ` ${inputId}-error` : ''}`} />
          <Field.HelperText id={`${inputId}-hint`}>{t('actions.askHint')}</Field.HelperText>
          {error && <Field.ErrorText id={`${inputId}-error`}>{error}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" alignSelf="flex-start" disabled={busy}>
          {t('actions.askButton')}
        </Button>
      </Stack>
    </form>
  );
}

type Closing = 'finalize' | 'reject';

function CloseActions({ dossier, t, onDone }: { dossier: Dossier; t: ConsoleT; onDone: (message: string) => Promise<void> }) {
  const [asking, setAsking] = useState<Closing | null>(null);
  const { error, setError, busy, run } = useAction(t);
  const closed = dossier.status === 'finalized' || dossier.status === 'rejected';
  const confirm = async () => {
    if (!asking) return;
    await run(async () => {
      const { message } = asking === 'finalize' ? await staffApi.finalize(dossier.id) : await staffApi.reject(dossier.id);
      setAsking(null);
      await onDone(message || t(asking === 'finalize' ? 'actions.finalized' : 'actions.rejected'));
    });
  };
  const titleKey = asking === 'reject' ? 'actions.confirmRejectTitle' : 'actions.confirmFinalizeTitle';
  const textKey = asking === 'reject' ? 'actions.confirmReject' : 'actions.confirmFinalize';
  return (
    <Stack gap="3">
      <HStack gap="3" flexWrap="wrap">
        <Button disabled={closed} onClick={() => setAsking('finalize')}>
          {t('actions.finalize')}
        </Button>
        <Button colorPalette="red" variant="outline" disabled={closed} onClick={() => setAsking('reject')}>
          {t('actions.reject')}
        </Button>
      </HStack>
      <Dialog.Root open={asking !== null} onOpenChange={(e) => !e.open && !busy && (setAsking(null), setError(null))} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content>
              <Dialog.Header>
                <Dialog.Title>{t(titleKey)}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Dialog.Description>{t(textKey, { id: dossier.id })}</Dialog.Description>
                  {error && <FlashAlert title={error} />}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexWrap="wrap" gap="2">
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" disabled={busy}>
                    {t('actions.cancel')}
                  </Button>
                </Dialog.ActionTrigger>
                <Button colorPalette={asking === 'reject' ? 'red' : 'brand'} disabled={busy} onClick={() => void confirm()}>
                  {t('actions.confirm')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </Stack>
  );
}

/** /staff/dossiers/:id: everything about one dossier, the operator's actions on it and its audit log. */
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
