import { useEffect, useState } from 'react';
import { Box, Button, Heading, HStack, List, Spinner, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { api, isApiError } from '@/shared/api/client';
import { browser } from '@/shared/browser';
import type { RegistrationRequest } from '@/core/api-types';
import { isBillingTimelineType, isTimelineType, missingDocuments, type TimelineItem } from '@/core/timeline';
import { FlashAlert } from '@/shared/components/FlashAlert';
import { useFlowProgress } from '@/shared/flow-progress';
import { firstMonths, usePageTitle, useT, type T } from '@/shared/useT';

/** How often the page asks for the request again (spec 001 §9: polling every 5000 ms). */
export const STATUS_POLL_MS = 5000;
export const OPEN_PATH = '/registration/open';
export const DOWNLOAD_PATH = '/registration/download/tradeRegisterDocuments';
export const DOWNLOAD_NAME = 'documente.zip';

interface TradeRegisterDocument {
  id: number;
  name: string;
}

function tradeRegisterDocuments(request: RegistrationRequest | undefined): TradeRegisterDocument[] {
  const list = request?.media?.trade_register_documents;
  return Array.isArray(list) ? (list as TradeRegisterDocument[]) : [];
}

/** The signed contract and power-of-attorney request made when the dossier was sent (`media.signed_documents`). */
export interface SignedDocument {
  id: number;
  kind: 'legal_assistance_contract' | 'power_of_attorney_request';
  name: string;
  url: string;
}

const SIGNED_KINDS: readonly string[] = ['legal_assistance_contract', 'power_of_attorney_request'];

function signedDocuments(request: RegistrationRequest | undefined): SignedDocument[] {
  const list = request?.media?.signed_documents;
  return Array.isArray(list) ? (list as SignedDocument[]).filter((d) => SIGNED_KINDS.includes(d?.kind) && typeof d.url === 'string') : [];
}

/** "23 noiembrie 2026" (ro) / "23 November 2026" (en) from `YYYY-MM-DD`; anything else as it is. */
export function formatDay(date: string | null | undefined, language: string): string {
  if (!date) return '';
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return date;
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'ro-RO', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(day);
}

type Tone = 'success' | 'warning' | 'error' | 'info';

const TONE_COLOR: Record<Tone, string> = { success: 'green.600', warning: 'orange.500', error: 'red.600', info: 'brand.solid' };

/** The title, tone and sentences of one item, by type and state (spec 001 §4 "Timeline states"). */
function describe(item: TimelineItem, t: T, day: (date: string | null | undefined) => string): { title: string; tone: Tone; lines: string[]; missing?: string[] } {
  const key = (k: string) => `status.items.${item.type}.${k}`;
  switch (item.type) {
    case 'document_review': {
      if (item.isDataComplete) return { title: t(key('title')), tone: 'success', lines: [t(key('complete'))] };
      const missing = missingDocuments(item).map((m) => t(key(`missing.${m}`)));
      return {
        title: t(key('title')),
        tone: 'warning',
        lines: [t(key('incomplete')), missing.length ? t(key('missingIntro')) : t(key('missingGeneric'))],
        missing,
      };
    }
    case 'name_reservation':
      return { title: t(key('title')), tone: item.hasNameReservation ? 'success' : 'info', lines: [t(key(item.hasNameReservation ? 'reserved' : 'pending'), { name: item.pfa_name })] };
    case 'submitted':
      return {
        title: t(key('title')),
        tone: 'info',
        lines: [t(key(item.finalDossierSubmitted ? 'final' : 'notFinal')), ...(item.estimated_date ? [t(key('estimated'), { date: day(item.estimated_date) })] : [])],
      };
    case 'delayed':
      return {
        title: t(key('title')),
        tone: 'warning',
        lines: [
          t(key('text')),
          ...(item.estimated_date ? [t(key('estimated'), { date: day(item.estimated_date) })] : []),
          ...(item.file_resubmission_date ? [t(key('resubmission'), { date: day(item.file_resubmission_date) })] : []),
        ],
      };
    case 'rejected':
      return { title: t(key('title')), tone: 'error', lines: [t(key('text'))] };
    case 'finalized':
      return { title: t(key('title')), tone: 'success', lines: [t(key('text'))] };
    case 'payment_received': {
      const phases = item.intro_months && item.then_amount !== null ? [t(key('phases'), { intro: money(item.amount, item.currency), firstMonths: firstMonths(t, item.intro_months), then: money(item.then_amount, item.currency) })] : [];
      return { title: t(key('title')), tone: 'success', lines: [t(key('amount'), { amount: money(item.amount, item.currency) }), ...phases, t(key('receipt'))] };
    }
    case 'payment_failed':
      return {
        title: t(key('title')),
        tone: 'error',
        lines: [
          item.amount !== null ? t(key('amount'), { amount: money(item.amount, item.currency ?? 'RON') }) : t(key('generic')),
          ...(item.next_attempt_date ? [t(key('retry'), { date: day(item.next_attempt_date) })] : []),
        ],
      };
    case 'subscription_cancelled':
      return { title: t(key('title')), tone: 'warning', lines: [t(key('text'))] };
  }
}

const moneyFormat = new Intl.NumberFormat('ro-RO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "130,00 lei" (RON), "12,00 EUR" otherwise. */
export function money(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  return `${moneyFormat.format(amount)} ${code === 'RON' ? 'lei' : code}`;
}

function TimelineCard({ item, t, day }: { item: TimelineItem; t: T; day: (date: string | null | undefined) => string }) {
  const { title, tone, lines, missing } = describe(item, t, day);
  const headingId = `timeline-item-${item.id}`;
  return (
    <List.Item listStyleType="none" data-testid="timeline-item" data-type={item.type}>
      <Box
        as="article"
        aria-labelledby={headingId}
        bg="bg"
        borderWidth="1px"
        borderLeftWidth="4px"
        borderLeftColor={TONE_COLOR[tone]}
        borderRadius="md"
        p={{ base: '4', md: '5' }}
      >
        <Stack gap="2">
          <HStack justify="space-between" align="baseline" gap="3" flexWrap="wrap">
            <Heading as="h3" size="md" id={headingId}>
              {title}
            </Heading>
            <Text as="span" color="fg.muted" fontSize="sm">
              <time dateTime={item.date}>{day(item.date)}</time>
            </Text>
          </HStack>
          {lines.map((line) => (
            <Text key={line}>{line}</Text>
          ))}
          {missing && missing.length > 0 && (
            <List.Root as="ul" ps="5" gap="1">
              {missing.map((m) => (
                <List.Item key={m}>{m}</List.Item>
              ))}
            </List.Root>
          )}
        </Stack>
      </Box>
    </List.Item>
  );
}

/** Saves a file the API serves to the signed-in user only (the token goes in a header, so no plain link) under `name`. */
async function saveFile(path: string, name: string): Promise<void> {
  browser.save(await api.fetchBlob(path), name);
}

function DocumentsBlock({ documents, t }: { documents: TradeRegisterDocument[]; t: T }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      // The trade register's documents: one zip, under the name the spec gives.
      await saveFile(DOWNLOAD_PATH, DOWNLOAD_NAME);
    } catch (e) {
      setError(isApiError(e) && e.status === 404 ? t('status.downloadMissing') : t('status.downloadError'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack as="section" aria-labelledby="status-documents" gap="3" bg="bg" borderWidth="1px" borderRadius="md" p={{ base: '4', md: '5' }}>
      <Heading as="h2" size="lg" id="status-documents">
        {t('status.documentsTitle')}
      </Heading>
      <Text>{t('status.documentsText')}</Text>
      <List.Root as="ul" ps="5" gap="1">
        {documents.map((d) => (
          <List.Item key={d.id}>{d.name}</List.Item>
        ))}
      </List.Root>
      <Box>
        <Button onClick={() => void download()} loading={busy} loadingText={t('status.download')}>
          {t('status.download')}
        </Button>
      </Box>
      {error && <FlashAlert status="error">{error}</FlashAlert>}
    </Stack>
  );
}

/** "Documentele semnate": one download per signed PDF (the applicant's own files, `GET /api/files/:id`). */
function SignedDocumentsBlock({ documents, t }: { documents: SignedDocument[]; t: T }) {
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (d: SignedDocument) => {
    setBusy(d.id);
    setError(null);
    try {
      await saveFile(d.url, d.name);
    } catch {
      setError(t('status.signedError'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack as="section" aria-labelledby="status-signed" gap="3" bg="bg" borderWidth="1px" borderRadius="md" p={{ base: '4', md: '5' }} data-testid="signed-documents">
      <Heading as="h2" size="lg" id="status-signed">
        {t('status.signedTitle')}
      </Heading>
      <Text>{t('status.signedText')}</Text>
      <List.Root as="ul" gap="2" ps="0">
        {documents.map((d) => (
          <List.Item key={d.id} listStyleType="none">
            <Button variant="outline" whiteSpace="normal" textAlign="start" h="auto" minH="10" py="2" onClick={() => void download(d)} loading={busy === d.id} loadingText={t('status.signedDownload', { title: t(`status.signedDocuments.${d.kind}`) })}>
              {t('status.signedDownload', { title: t(`status.signedDocuments.${d.kind}`) })}
            </Button>
          </List.Item>
        ))}
      </List.Root>
      {error && <FlashAlert status="error">{error}</FlashAlert>}
    </Stack>
  );
}

/**
 * /infiintare-pfa/status ("Status Dosar", spec 001 §2 item 11, §3, §4 "Timeline states"): the
 * general notice, the trade register's documents when there are some (one zip, documente.zip),
 * the signed contract and power-of-attorney request ("Documentele semnate", one PDF each), and one
 * card per timeline item (the operators' and the payment's: received, failed, subscription ended),
 * newest first (the current state on top). The request is asked
 * for again every 5 s, so an operator's new item shows without a reload.
 */
export function StatusPage() {
  const t = useT('pages');
  const { i18n } = useTranslation();
  usePageTitle(t('status.pageTitle'));
  const { setProgress } = useFlowProgress();
  // The dossier is sent and paid: the wrapper's bar shows every step done.
  useEffect(() => setProgress({ value: 100, label: t('common:flows.progressDone') }), [setProgress, t]);
  const { data: request, error } = useSWR(OPEN_PATH, (path: string) => api.get<RegistrationRequest>(path, { timestamp: Date.now() }), {
    refreshInterval: STATUS_POLL_MS,
    revalidateOnFocus: true,
  });
  const day = (date: string | null | undefined) => formatDay(date, i18n.language);
  const items = ((request?.status_timeline ?? []) as TimelineItem[]).filter((item) => isTimelineType(item?.type) || isBillingTimelineType(item?.type));
  // The server answers by date then id: newest first is the reverse.
  const newestFirst = [...items].reverse();
  const documents = tradeRegisterDocuments(request);
  const signed = signedDocuments(request);
  const latest = newestFirst[0];

  return (
    <Stack gap="6">
      <Heading as="h1" size="2xl">
        {t('status.title')}
      </Heading>
      <FlashAlert status="info">{t('status.notice')}</FlashAlert>

      {!request && !error && (
        <HStack gap="3" role="status">
          <Spinner size="sm" aria-hidden="true" />
          <Text>{t('status.loading')}</Text>
        </HStack>
      )}
      {!request && error && <FlashAlert status="error">{t('status.loadError')}</FlashAlert>}

      {request && (
        <>
          {documents.length > 0 && <DocumentsBlock documents={documents} t={t} />}
          {signed.length > 0 && <SignedDocumentsBlock documents={signed} t={t} />}
          <Stack as="section" aria-labelledby="status-history" gap="4">
            <Heading as="h2" size="lg" id="status-history">
              {t('status.historyTitle')}
            </Heading>
            <VisuallyHidden role="status">{latest ? t('status.latest', { title: describe(latest, t, day).title, date: day(latest.date) }) : ''}</VisuallyHidden>
            {newestFirst.length === 0 ? (
              <Text color="fg.muted">{t('status.empty')}</Text>
            ) : (
              <List.Root as="ol" gap="4" ps="0">
                {newestFirst.map((item) => (
                  <TimelineCard key={item.id} item={item} t={t} day={day} />
                ))}
              </List.Root>
            )}
          </Stack>
        </>
      )}
    </Stack>
  );
}
